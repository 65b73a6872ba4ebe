// `npm run load`: the queue-mode load run in full (test/e2e/queue-load.test.ts), writing the section "Queue-mode
// load run" at the end of test/crash-report.md. LOAD_ITEMS (default 10) items per execution.
// Needs a built dist/ (`npm run build`) and runs a real n8n: one e2e run at a time on a machine.
process.env.LOAD_FULL = '1';
process.argv = [process.argv[0], process.argv[1], 'e2e', 'test/e2e/queue-load.test.ts'];
await import('./jest.mjs');
