// Jest reads `testTimeout` only at the top level of a multi-project config, so each tier sets its own
// default here (a test may still raise it with jest.setTimeout).
const tier = (expect.getState().testPath ?? '').match(/[\\/]test[\\/](unit|engine|e2e)[\\/]/)?.[1];
const TIMEOUTS: Record<string, number> = { unit: 20_000, engine: 120_000, e2e: 600_000 };
jest.setTimeout(TIMEOUTS[tier ?? 'unit'] ?? 20_000);
