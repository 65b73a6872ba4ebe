// "Every example green", as a newcomer sees it in the editor: each workflow with a Manual Trigger runs without
// an unintended error; each trigger of the pack shows an event on Fetch Test Event; each trigger or webhook
// workflow activates. Shared by examples.test.ts (one start) and restart.test.ts (a second `npm start`).
import type { N8nClient } from '../../../scripts/lib/n8n-client.ts';
import { describeErrors, type ExecutionSummary } from '../../../scripts/lib/execution-data.ts';

const PACK_PREFIX = 'n8n-nodes-cloud-storage.';

// The bad-input example ends on purpose with one node that stops the workflow (no Continue On Fail), to show
// such an error; every other node of it turns its error into an item.
export const INTENDED_STOP: Record<string, RegExp> = {
	'Bad input: clear errors, nothing sent, n8n keeps running':
		/^Bad Task ID: The task ID must be a positive whole number \(got "T-12"\)[^\n]*$/,
};

// Each example node that shows an error on purpose (Continue On Fail), with the error it must show under
// `npm start`: a different error (e.g. a URL that is not on the demo DAV server) means the example teaches
// nothing. Any other error item in any example fails the test too.
export const INTENDED_ERRORS: Record<string, Record<string, RegExp>> = {
	'Bad input: clear errors, nothing sent, n8n keeps running': {
		'Malformed Hash': /^"ab\/cd" is not a file hash/,
		'Upload Into ROOT': /^Files cannot be uploaded directly into ROOT$/,
		'Garbage iCalendar': /^The iCalendar data could not be parsed/,
		'Impossible Date': /"2030-13-45T99:00" is not a valid date or time/,
		'Bad Arguments': /arguments are not valid JSON/,
		'Bad Messages': /messages JSON is not valid JSON/,
	},
	'DMS: input errors stop before any write': {
		'Invalid Task ID': /^The task ID must be a positive whole number \(got "T-12"\)$/,
		'Missing Name': /^Missing required field: Name$/,
		'Hours Not Numeric': /^Estimated hours must be a number of hours such as 2\.5 \(got "four"\)$/,
		'Unknown Option': /^Unknown option "Blocked" for Status$/,
		'Not A Worker': /^Unknown user \(not a worker of this project\) "1001" for Responsible$/,
		'Move Project': /^The project of a task cannot be changed$/,
		'Undeclared Field': /^The field "invoice" is not declared for this organisation$/,
	},
	'E-signature: signatures and signing requests': {
		'Bad Date': /^From Date "2026-02-30" is not a real date or time$/,
		'Bad E-Mail': /^Recipient E-Mails: "anna\(at\)example\.com" is not an e-mail address$/,
	},
	'Search: styles, paging and input errors': {
		'Short Query': /^Query "x" is too short$/,
		'No Section': /^Choose at least one section to search$/,
		'Bad JSON': /^The search JSON is not valid JSON$/,
	},
};

/** Every `error` an item of the execution carries, as "node: message". */
function errorItems(execution: ExecutionSummary) {
	return Object.entries(execution.nodes).flatMap(([node, runs]) =>
		runs.flatMap((run) =>
			run.outputs.flatMap((items) =>
				items
					.filter((item) => typeof item.json.error === 'string')
					.map((item) => ({ node, message: String(item.json.error) })),
			),
		),
	);
}

type ExampleNode = { name: string; type: string; disabled?: boolean };

/** What is not green in the examples `names` of this n8n, one line each; [] when all are. */
export async function examplesNotGreen(client: N8nClient, names: string[]): Promise<string[]> {
	const failures: string[] = [];
	for (const ref of await client.listWorkflows()) {
		if (!names.includes(ref.name)) continue;
		const nodes = (await client.getWorkflow(ref.id)).nodes as ExampleNode[];
		const manual = nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
		if (manual) {
			const execution = await client.runWorkflow(ref.id, { trigger: manual.name });
			failures.push(...manualRunFailures(ref.name, execution));
			continue;
		}
		// "Fetch Test Event" on each of the pack's triggers: the editor's first click on a trigger example.
		for (const trigger of nodes.filter(
			(node) => node.type.startsWith(PACK_PREFIX) && /Trigger$/.test(node.type) && !node.disabled,
		)) {
			const execution = await client.runWorkflow(ref.id, { trigger: trigger.name });
			const errors = describeErrors(execution);
			const events = execution.nodes[trigger.name]?.[0]?.outputs[0]?.length ?? 0;
			if (errors || execution.status !== 'success' || events === 0)
				failures.push(
					`${ref.name}: Fetch Test Event of ${trigger.name} (${execution.status}, ${events} events): ${errors}`,
				);
		}
		try {
			await client.activate(ref.id);
			await client.deactivate(ref.id);
		} catch (error) {
			failures.push(`${ref.name}: activation failed: ${(error as Error).message}`);
		}
	}
	return failures;
}

function manualRunFailures(name: string, execution: ExecutionSummary): string[] {
	const failures: string[] = [];
	const intendedItems = INTENDED_ERRORS[name] ?? {};
	const shown = errorItems(execution);
	for (const { node, message } of shown) {
		if (!intendedItems[node]?.test(message))
			failures.push(`${name}: ${node} shows an unintended error: ${message}`);
	}
	for (const node of Object.keys(intendedItems)) {
		if (!shown.some((item) => item.node === node))
			failures.push(`${name}: ${node} shows no error item`);
	}
	const errors = describeErrors(execution);
	const intended = INTENDED_STOP[name];
	if (intended) {
		if (execution.status !== 'error' || !intended.test(errors))
			failures.push(`${name} (${execution.status}): ${errors}`);
	} else if (errors || execution.status !== 'success')
		failures.push(`${name} (${execution.status}): ${errors}`);
	return failures;
}
