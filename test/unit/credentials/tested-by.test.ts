/**
 * n8n 2.41 runs a credential type's declarative `test` through its request helper, which follows redirects and
 * adds the credential again on the new address; a node's `testedBy` function runs instead only when the type has
 * no `test`. So no credential of the pack declares one, and every node that offers a credential names the
 * function that tests it (`methods.credentialTest`), whichever node n8n finds first.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ICredentialType, INodeType } from 'n8n-workflow';

import { storageCredentials } from '../../../nodes/shared/storage/auth-fields';

const root = path.join(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
	n8n: { nodes: string[]; credentials: string[] };
};
const source = (built: string) =>
	path.join(root, built.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
const firstExport = <T>(file: string) =>
	Object.values(jest.requireActual<Record<string, new () => T>>(source(file)))[0];

const credentialTypes = pkg.n8n.credentials.map(
	(file) => new (firstExport<ICredentialType>(file))(),
);
const nodeTypes = pkg.n8n.nodes.map((file) => new (firstExport<INodeType>(file))());

it.each(credentialTypes.map((type) => [type.name, type] as const))(
	'%s declares no request test for n8n to send',
	(_name, type) => {
		expect(type.test).toBeUndefined();
	},
);

it.each(nodeTypes.map((type) => [type.description.name, type] as const))(
	'%s names a test function for every credential it offers',
	(_name, type) => {
		for (const credential of type.description.credentials ?? []) {
			expect(typeof credential.testedBy).toBe('string');
			const test = type.methods?.credentialTest?.[credential.testedBy as string];
			expect(typeof test).toBe('function');
		}
	},
);

it('every credential of the pack is offered by some node with a test', () => {
	const tested = new Set(
		nodeTypes.flatMap((type) => (type.description.credentials ?? []).map((c) => c.name)),
	);
	expect([...tested].sort()).toEqual(credentialTypes.map((type) => type.name).sort());
});

it("the Storage node's written-out credentials are the shared storage credentials", () => {
	const storage = nodeTypes.find((type) => type.description.name === 'cloudStorage')!;
	expect(storage.description.credentials).toEqual(storageCredentials);
});
