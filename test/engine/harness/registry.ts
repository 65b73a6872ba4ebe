/**
 * One registry per test file: the pack's node and credential types plus the harness's stand-ins, loaded
 * once, with optional extra node / credential types (test-only nodes) passed per run.
 */
import type { ICredentialType, INodeType, IVersionedNodeType } from 'n8n-workflow';

import {
	EngineCredentialTypes,
	EngineNodeTypes,
	loadHarnessNodeTypes,
	loadPackCredentialTypes,
	loadPackNodeTypes,
} from './node-types';

export interface ExtraTypes {
	/** Extra node types keyed by full type name, e.g. `{ 'engine-test.echo': new Echo() }`. */
	nodeTypes?: Record<string, INodeType | IVersionedNodeType>;
	credentialTypes?: ICredentialType[];
}

let base:
	| { nodes: Record<string, INodeType | IVersionedNodeType>; credentials: ICredentialType[] }
	| undefined;

export function createRegistry(extra: ExtraTypes = {}) {
	base ??= {
		nodes: { ...loadHarnessNodeTypes(), ...loadPackNodeTypes() },
		credentials: loadPackCredentialTypes(),
	};
	const nodeTypes = new EngineNodeTypes({ ...base.nodes, ...extra.nodeTypes });
	const credentialTypes = new EngineCredentialTypes(
		[...base.credentials, ...(extra.credentialTypes ?? [])],
		nodeTypes,
	);
	return { nodeTypes, credentialTypes };
}
