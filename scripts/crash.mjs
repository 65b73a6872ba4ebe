// `npm run crash`: the triggers' crash tests in full (test/e2e/trigger-crash.test.ts), writing
// test/crash-report.md (the rows of the configurations run are replaced, the others kept). Narrowed by
// CRASH_TRIGGERS (default "storage,dms,esignature,calendar,startsSoon,contacts"), CRASH_SCHEDULERS
// ("durable,default"), CRASH_MODES ("regular,queue"), CRASH_COUNT (kills per configuration, default 20) and
// CRASH_SEED (39). Needs a built dist/ (`npm run build`) and runs a real n8n: one e2e run at a time on a machine.
process.env.CRASH_FULL = '1';
process.argv = [process.argv[0], process.argv[1], 'e2e', 'test/e2e/trigger-crash.test.ts'];
await import('./jest.mjs');
