// Unit tests talk to nock only: no real connection leaves the process, mocks start clean for every test,
// and (with `allMocksUsed`) a test that leaves a mocked request unsent fails. nock cannot see the main-thread
// transfers' own sockets, so transfers take n8n's helper here; those paths have their own tests against real servers.
import nock from 'nock';

export function offlineWithNock(options: { allMocksUsed?: boolean } = {}): void {
	const workerTransfers = process.env.CLOUD_STORAGE_WORKER_TRANSFERS;
	beforeAll(() => {
		process.env.CLOUD_STORAGE_WORKER_TRANSFERS = 'false';
	});
	beforeEach(() => {
		nock.cleanAll();
		nock.disableNetConnect();
	});
	if (options.allMocksUsed) afterEach(() => expect(nock.pendingMocks()).toEqual([]));
	afterAll(() => {
		if (workerTransfers === undefined) delete process.env.CLOUD_STORAGE_WORKER_TRANSFERS;
		else process.env.CLOUD_STORAGE_WORKER_TRANSFERS = workerTransfers;
		nock.enableNetConnect();
		nock.restore();
	});
}
