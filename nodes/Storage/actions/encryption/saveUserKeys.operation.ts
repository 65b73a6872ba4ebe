import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { encryptionAction, keyField, opaque, userIdField } from './common';

const properties: INodeProperties[] = [
	keyField('KEM Public Key', 'kem', "The account's KEM public key"),
	keyField('DSA Public Key', 'dsa', "The account's DSA public key"),
	keyField('X25519 Public Key', 'x25519', "The account's x25519 public key"),
	keyField('Ed25519 Public Key', 'ed25519', "The account's ed25519 public key"),
	userIdField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['encryption'], operation: ['saveUserKeys'] } },
	properties,
);

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fields = {
		kem: opaque(this, 'kem', 'KEM public key', itemIndex),
		dsa: opaque(this, 'dsa', 'DSA public key', itemIndex),
		x25519: opaque(this, 'x25519', 'X25519 public key', itemIndex),
		ed25519: opaque(this, 'ed25519', 'Ed25519 public key', itemIndex),
	};
	return [
		{ json: await encryptionAction(this, 'save_user_encryption_keys', fields, itemIndex, true) },
	];
}
