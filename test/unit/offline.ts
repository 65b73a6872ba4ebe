// Unit tests talk to nock only: no real connection leaves the process, mocks start clean for every test,
// and (with `allMocksUsed`) a test that leaves a mocked request unsent fails.
import nock from 'nock';

export function offlineWithNock(options: { allMocksUsed?: boolean } = {}): void {
	beforeEach(() => {
		nock.cleanAll();
		nock.disableNetConnect();
	});
	if (options.allMocksUsed) afterEach(() => expect(nock.pendingMocks()).toEqual([]));
	afterAll(() => {
		nock.enableNetConnect();
		nock.restore();
	});
}
