// `npm run crash`: the triggers' crash tests in full (test/e2e/trigger-crash.test.ts), writing
// test/crash-report.md. CRASH_COUNT (default 20) kills per run; CRASH_SCHEDULERS (default "default,durable").
// Needs a built dist/ (`npm run build`) and runs a real n8n: one e2e run at a time on a machine.
process.env.CRASH_FULL = '1';
process.argv = [process.argv[0], process.argv[1], 'e2e', 'test/e2e/trigger-crash.test.ts'];
await import('./jest.mjs');
