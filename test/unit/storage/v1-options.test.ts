// A legacy (v1) Storage call is either anonymous or authenticated, never both: the compiler refuses an
// anonymous call with an auth mode (checked by `tsc -p tsconfig.test.json`: each `@ts-expect-error` below must
// meet an error), as the transport's request type refuses a mode without a credential.
import type { V1Options } from '../../../nodes/shared/storage/client';

describe('v1 call options', () => {
	it('refuses an anonymous call with an auth mode', () => {
		const anonymous = Math.random() < 2;
		const refused: unknown[] = [
			// @ts-expect-error An anonymous call has no credential to authenticate in a session.
			{ anonymous: true, mode: 'session' },
			// @ts-expect-error Nor with its fields.
			{ anonymous: true, mode: 'fields', method: 'GET' },
		] satisfies V1Options[];
		const accepted: V1Options[] = [
			{},
			{ anonymous: true, method: 'POST' },
			{ anonymous, method: 'POST' },
			{ mode: 'session', method: 'GET' },
			{ anonymous: false, mode: 'fields' },
		];
		expect(refused).toHaveLength(2);
		expect(accepted).toHaveLength(5);
	});
});
