/**
 * Node and credential type registries, as n8n's loader builds them for an installed community package:
 * node types are named `<package name>.<description.name>`, credential types by their `name`.
 *
 * The pack's classes are found by scanning the source tree (so a new node or credential needs no harness
 * change) and loaded from TypeScript through jest's transform.
 */
import type {
	ICredentialType,
	IDataObject,
	INodeProperties,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const PACKAGE_NAME: string = JSON.parse(
	readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'),
).name;

type AnyNodeType = INodeType | IVersionedNodeType;

/** Every exported class of the matching files, instantiated. */
function instancesFromFiles(pattern: string, cwd: string): unknown[] {
	return (
		globSync(pattern, { cwd })
			.sort()
			// Loaded by path, as n8n loads a package's node files.
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			.flatMap((file) => Object.values(require(path.join(cwd, file)) as Record<string, unknown>))
			.filter(isClass)
			.map((Class) => new Class())
	);
}

// Only classes: a node file may also export helper functions, which must not be called with `new`.
const isClass = (value: unknown): value is new () => unknown =>
	typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));

const isNodeType = (value: unknown): value is AnyNodeType =>
	typeof (value as AnyNodeType)?.description?.name === 'string';

const isCredentialType = (value: unknown): value is ICredentialType =>
	typeof (value as ICredentialType)?.name === 'string' &&
	Array.isArray((value as ICredentialType)?.properties);

/** The pack's node types, keyed by their full type name. */
export function loadPackNodeTypes(): Record<string, AnyNodeType> {
	const entries = instancesFromFiles('nodes/**/*.node.ts', REPO_ROOT)
		.filter(isNodeType)
		.map((nodeType) => [`${PACKAGE_NAME}.${nodeType.description.name}`, nodeType] as const);
	return Object.fromEntries(entries);
}

/** The harness's stand-ins for n8n-nodes-base nodes, keyed by their full type name. */
export function loadHarnessNodeTypes(): Record<string, AnyNodeType> {
	const nodes = instancesFromFiles('*.node.ts', path.join(__dirname, 'nodes')).filter(isNodeType);
	return Object.fromEntries(nodes.map((nodeType) => [nodeType.description.name, nodeType]));
}

export function loadPackCredentialTypes(): ICredentialType[] {
	return instancesFromFiles('credentials/*.credentials.ts', REPO_ROOT).filter(isCredentialType);
}

export class EngineNodeTypes implements INodeTypes {
	constructor(readonly types: Record<string, AnyNodeType>) {}

	getByName(nodeType: string): AnyNodeType {
		const type = this.types[nodeType];
		if (!type)
			throw new Error(
				`Unknown node type "${nodeType}" (known: ${Object.keys(this.types).join(', ')})`,
			);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(Object.keys(this.types).map((name) => [name, {}]));
	}
}

export class EngineCredentialTypes {
	private readonly types: Map<string, ICredentialType>;

	constructor(
		types: ICredentialType[],
		private readonly nodeTypes: EngineNodeTypes,
	) {
		this.types = new Map(types.map((type) => [type.name, type]));
	}

	getByName(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) throw new Error(`Unknown credential type "${name}"`);
		return type;
	}

	/** All ancestors through `extends`, nearest first, as n8n's CredentialTypes returns them. */
	getParentTypes(name: string): string[] {
		const parents = this.types.get(name)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	/** Full type names of the nodes that declare this credential type. */
	getSupportedNodes(name: string): string[] {
		return Object.entries(this.nodeTypes.types)
			.filter(([, type]) => {
				const description = NodeHelpers.getVersionedNodeType(type).description;
				return description.credentials?.some((credential) => credential.name === name);
			})
			.map(([typeName]) => typeName);
	}

	/** Own properties merged over the parents', as n8n's CredentialsHelper.getCredentialsProperties. */
	getProperties(name: string): INodeProperties[] {
		const type = this.getByName(name);
		if (!type.extends) return type.properties;
		const combined: INodeProperties[] = [];
		for (const parent of type.extends)
			NodeHelpers.mergeNodeProperties(combined, this.getProperties(parent));
		NodeHelpers.mergeNodeProperties(combined, type.properties);
		return combined;
	}
}
