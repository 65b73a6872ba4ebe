import { configWithoutCloudSupport } from '@n8n/node-cli/eslint';

// The pack needs runtime dependencies (XML, iCalendar, multipart, streaming HTTP), so it uses
// the community rules without the n8n Cloud restrictions.
export default configWithoutCloudSupport;
