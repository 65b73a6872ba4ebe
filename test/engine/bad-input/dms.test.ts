/**
 * Bad input for the DMS Task and Contact Person nodes. IDs and comments are checked before any request;
 * field values are checked against the organisation's field list (one read), never by sending the write.
 */
import nock from 'nock';

import { dmsApi, TASK_FIELDS } from '../../unit/dms/run-dms';
import { badInputSuite, BASE, mapped, rl, type BadInput } from './harness';

const task = 'cloudStorageDmsTask';
const person = 'cloudStorageContactPerson';
const TASK = {
	dvs_document_id: 5,
	name: 'T',
	dvs_project_id: { id: 3, display_name: 'P' },
	dropdown_status: { id: 31, display_name: 'Open' },
	followers: [],
};

/** Answers the reads a field check needs; any write would get a 599 and so fail the message check. */
const fieldsOnly = () => {
	dmsApi({
		'task/get_fields': [200, { fields: TASK_FIELDS }],
		'task/get_document': [200, TASK],
		'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
		'task/get_users': [200, { users: [{ id: 7, display_name: 'Ann' }] }],
	});
};
const create = (fields: Record<string, unknown>) => ({
	resource: 'task',
	operation: 'create',
	project: rl('3'),
	fields: mapped(fields) as never,
});
const update = (fields: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
	resource: 'task',
	operation: 'update',
	documentId: rl('5'),
	fields: mapped(fields) as never,
	...extra,
});
const raw =
	(action: string, status: number, body: string, type = 'application/json') =>
	() => {
		nock(BASE)
			.persist()
			.post(`/api_dvs/task/${action}`)
			.reply(status, body, { 'Content-Type': type });
	};

const cases: BadInput[] = [
	// IDs (checked first)
	{
		name: 'task ID that is text',
		node: task,
		parameters: { resource: 'task', operation: 'get', documentId: rl('={{ "abc" }}') },
		error: /task ID must be a positive whole number \(got "abc"\)/,
	},
	{
		name: 'negative task ID',
		node: task,
		parameters: { resource: 'task', operation: 'get', documentId: rl('={{ "-4" }}') },
		error: /positive whole number \(got "-4"\)/,
	},
	{
		name: 'fractional task ID',
		node: task,
		parameters: { resource: 'task', operation: 'get', documentId: rl('={{ "1.5" }}') },
		error: /positive whole number \(got "1.5"\)/,
	},
	{
		name: 'task ID zero',
		node: task,
		parameters: {
			resource: 'task',
			operation: 'addComment',
			documentId: rl('={{ "0" }}'),
			comment: 'x',
		},
		error: /positive whole number \(got "0"\)/,
	},
	{
		name: 'empty task ID from an expression',
		node: task,
		parameters: { resource: 'task', operation: 'get', documentId: rl('={{ "" }}') },
		error: /task ID|No task/,
	},
	{
		name: 'project ID that is text',
		node: task,
		parameters: { ...create({ name: 'T' }), project: rl('={{ "P-3" }}') },
		error: /project ID must be a positive whole number \(got "P-3"\)/,
	},
	{
		name: 'contact person ID that is text',
		node: person,
		parameters: { resource: 'contactPerson', operation: 'get', documentId: rl('={{ "x1" }}') },
		error: /contact person ID must be a positive whole number/,
	},
	{
		name: 'contact person ID that is huge',
		node: person,
		parameters: { resource: 'contactPerson', operation: 'get', documentId: rl('={{ "1e400" }}') },
		error: /positive whole number/,
	},

	// Comments
	{
		name: 'empty comment',
		node: task,
		parameters: {
			resource: 'task',
			operation: 'addComment',
			documentId: rl('5'),
			comment: '={{ "   " }}',
		},
		error: /The comment is empty/,
	},
	{
		name: 'mention that is not a user ID',
		node: task,
		parameters: {
			resource: 'task',
			operation: 'addComment',
			documentId: rl('5'),
			comment: 'hi',
			mentions: '={{ ["ann"] }}',
		},
		error: /"ann" is not a user ID to mention/,
	},

	// Field values, checked against the field list before any write
	{
		name: 'due date that is not a date',
		node: task,
		parameters: create({ name: 'T', date_due: '31.02.2026' }),
		error: /Due date must be a date as YYYY-MM-DD/,
		answer: fieldsOnly,
	},
	{
		name: 'hours that are not a number',
		node: task,
		parameters: create({ name: 'T', estimated_hours: 'two' }),
		error: /Estimated hours must be a number of hours/,
		answer: fieldsOnly,
	},
	{
		name: 'unknown dropdown value',
		node: task,
		parameters: create({ name: 'T', dropdown_status: 'Maybe' }),
		error: /Unknown .*"Maybe" for Status/,
		answer: fieldsOnly,
	},
	{
		name: 'name given as an object',
		node: task,
		parameters: create({ name: '={{ { a: 1 } }}' }),
		error: /Name must be text, not an object/,
		answer: fieldsOnly,
	},
	{
		name: 'followers as malformed JSON',
		node: task,
		parameters: create({ name: 'T', followers: '[7, ' }),
		error: /is not a valid JSON array/,
		answer: fieldsOnly,
	},
	{
		name: 'project change on update',
		node: task,
		parameters: update({ dvs_project_id: 4 }),
		error: /project of a task cannot be changed/,
	},
	{
		name: 'update with nothing set',
		node: task,
		parameters: update({ name: '' }),
		error: /Nothing to update/,
		answer: fieldsOnly,
	},
	{
		name: 'clearing a required field',
		node: task,
		parameters: update({}, { clearFields: ['name'] }),
		error: /Name is required and cannot be emptied/,
		answer: fieldsOnly,
	},
	{
		name: 'filter on a field that allows none',
		node: task,
		parameters: {
			resource: 'task',
			operation: 'getAll',
			filters: { conditions: [{ field: 'name', values: ['x'] }] },
		},
		error: /"name" cannot be used as a filter/,
		answer: fieldsOnly,
	},
	{
		name: 'filter without values',
		node: task,
		parameters: {
			resource: 'task',
			operation: 'getAll',
			filters: { conditions: [{ field: 'dropdown_status', values: [] }] },
		},
		error: /filter on Status has no values/,
		answer: fieldsOnly,
	},

	// Answers that break the contract
	{
		name: 'a 200 with an HTML body',
		node: task,
		parameters: { resource: 'task', operation: 'get', documentId: rl('5') },
		error: /HTML page/,
		answer: raw('get_document', 200, '<html><body>Login</body></html>', 'text/html'),
	},
	{
		name: 'a 200 with truncated JSON',
		node: task,
		parameters: { resource: 'task', operation: 'get', documentId: rl('5') },
		error: /JSON|plain text/i,
		answer: raw('get_document', 200, '{"dvs_document_id": 5, "na'),
	},
];

badInputSuite(cases);
