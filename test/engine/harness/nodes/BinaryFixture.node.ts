import { fixtureBytes } from '../fixtures';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

/**
 * Test-only stand-in for n8n's "Convert to File" / "Read Files from Disk": attaches a binary property to
 * every input item, stored through n8n's binary data service (`prepareBinaryData`) like those nodes do.
 * Content is `content` as UTF-8 or, when `sizeBytes` > 0, that many bytes of a repeating pattern
 * (see `fixtureBytes`, which tests use to compare downloads).
 */
export class BinaryFixture implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Binary Fixture (test)',
		name: 'engine-test.binaryFixture',
		group: ['transform'],
		version: 1,
		description: 'Attaches generated binary data to each item',
		defaults: { name: 'Binary Fixture' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{ displayName: 'Content', name: 'content', type: 'string', default: '' },
			{ displayName: 'Size (Bytes)', name: 'sizeBytes', type: 'number', default: 0 },
			{ displayName: 'File Name', name: 'fileName', type: 'string', default: 'fixture.bin' },
			{
				displayName: 'MIME Type',
				name: 'mimeType',
				type: 'string',
				default: 'application/octet-stream',
			},
			{
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const output: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			const sizeBytes = this.getNodeParameter('sizeBytes', itemIndex) as number;
			const content = this.getNodeParameter('content', itemIndex) as string;
			const buffer = sizeBytes > 0 ? fixtureBytes(sizeBytes) : Buffer.from(content, 'utf8');
			const binaryData = await this.helpers.prepareBinaryData(
				buffer,
				this.getNodeParameter('fileName', itemIndex) as string,
				this.getNodeParameter('mimeType', itemIndex) as string,
			);
			const property = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
			output.push({
				json: items[itemIndex].json,
				binary: { ...items[itemIndex].binary, [property]: binaryData },
				pairedItem: { item: itemIndex },
			});
		}
		return [output];
	}
}
