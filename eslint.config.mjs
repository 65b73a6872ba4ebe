import { configWithoutCloudSupport } from '@n8n/node-cli/eslint';

export default [
	...configWithoutCloudSupport,
	{
		// The pack is for self-hosted n8n and needs runtime libraries (XML, iCalendar/vCard, multipart,
		// streaming HTTP), which the n8n Cloud variant of the rules forbids.
		files: ['package.json'],
		rules: { '@n8n/community-nodes/no-runtime-dependencies': 'off' },
	},
];
