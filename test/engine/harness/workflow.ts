/**
 * Turning a test's short workflow description into the nodes n8n would have saved: ids, positions and the
 * node type's latest version filled in, and credentials assigned the way the editor assigns them (each
 * credential type the node declares, shows for its parameters, and the test provides).
 */
import { randomUUID } from 'node:crypto';
import type {
	IConnections,
	INode,
	INodeCredentials,
	INodeType,
	IVersionedNodeType,
	IWorkflowSettings,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import type { EngineNodeTypes } from './node-types';

/** A node as tests write it: `id`, `position`, `typeVersion` and `credentials` may be left out. */
export type NodeSpec = Omit<INode, 'id' | 'position' | 'typeVersion'> &
	Partial<Pick<INode, 'id' | 'position' | 'typeVersion'>>;

export interface WorkflowSpec {
	nodes: NodeSpec[];
	connections: IConnections;
	settings?: IWorkflowSettings;
}

export function prepareNodes(
	specs: NodeSpec[],
	nodeTypes: EngineNodeTypes,
	credentialTypes: string[],
): INode[] {
	return specs.map((spec, index) => {
		const typeVersion = spec.typeVersion ?? latestVersion(nodeTypes.getByName(spec.type));
		const node: INode = {
			...structuredClone(spec),
			id: spec.id ?? randomUUID(),
			position: spec.position ?? [index * 220, 0],
			typeVersion,
		};
		node.credentials ??= assignCredentials(node, nodeTypes, credentialTypes);
		return node;
	});
}

/** The version the editor puts on a new node: the default version, else the highest. */
function latestVersion(type: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in type) return type.currentVersion;
	const { version, defaultVersion } = type.description;
	return defaultVersion ?? (Array.isArray(version) ? Math.max(...version) : version);
}

function assignCredentials(
	node: INode,
	nodeTypes: EngineNodeTypes,
	available: string[],
): INodeCredentials | undefined {
	const description = nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description;
	// Decide on the parameters with defaults applied, e.g. an `authentication` option left at its default.
	const parameters =
		NodeHelpers.getNodeParameters(
			description.properties,
			node.parameters,
			true,
			false,
			node,
			description,
		) ?? {};
	const assigned = (description.credentials ?? []).filter(
		(credential) =>
			available.includes(credential.name) &&
			NodeHelpers.displayParameter(parameters, credential, node, description, parameters),
	);
	if (assigned.length === 0) return undefined;
	return Object.fromEntries(
		assigned.map(({ name }) => [name, { id: name, name: `${name} (test)` }]),
	);
}

/** Connections for nodes run one after another, e.g. `chain('Trigger', 'Make File', 'Upload')`. */
export function chain(...nodeNames: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i < nodeNames.length - 1; i++) {
		connections[nodeNames[i]] = { main: [[{ node: nodeNames[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}
