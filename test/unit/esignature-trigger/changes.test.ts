/** New-signature detection per file, on inline records: exactly once, the same signer twice, equal seconds. */
import {
	fromDate,
	newSignatures,
	orderSignatures,
	recordsOf,
} from '../../../nodes/shared/esignature/changes';
import { parseFileList } from '../../../nodes/ESignatureTrigger/poll';

const sig = (signing_timestamp: string, signer_name: string, file_hash = 'f1') => ({
	file_hash,
	signing_timestamp,
	signer_name,
});

describe('newSignatures', () => {
	it('a file seen for the first time: every signature is new and the newest second is remembered', () => {
		const result = newSignatures(undefined, [
			sig('2030-01-02 10:00:00', 'Bob'),
			sig('2030-01-01 09:00:00', 'Ann'),
			sig('2030-01-02 10:00:00', 'Cy'),
		]);
		expect(result.fresh.map((r) => r.signer_name)).toEqual(['Ann', 'Bob', 'Cy']);
		expect(result.next).toEqual({ t: '2030-01-02 10:00:00', s: ['Bob', 'Cy'] });
	});

	it('the inclusive from_date answer repeats the last second: only records beyond it are new', () => {
		const previous = { t: '2030-01-02 10:00:00', s: ['Bob'] };
		const answer = [
			sig('2030-01-02 10:00:00', 'Bob'),
			sig('2030-01-02 10:00:00', 'Dee'),
			sig('2030-01-02 10:00:05', 'Bob'),
		];
		const result = newSignatures(previous, answer);
		expect(result.fresh.map((r) => `${r.signer_name} ${r.signing_timestamp}`)).toEqual([
			'Dee 2030-01-02 10:00:00',
			'Bob 2030-01-02 10:00:05',
		]);
		expect(result.next).toEqual({ t: '2030-01-02 10:00:05', s: ['Bob'] });
		expect(newSignatures(result.next, answer.slice(2)).fresh).toEqual([]);
	});

	it('the same signer signing twice in the same second counts twice', () => {
		const once = newSignatures(null, [sig('2030-01-01 00:00:00', 'Ann')]);
		const twice = newSignatures(once.next, [
			sig('2030-01-01 00:00:00', 'Ann'),
			sig('2030-01-01 00:00:00', 'Ann'),
		]);
		expect(twice.fresh).toHaveLength(1);
		expect(twice.next).toEqual({ t: '2030-01-01 00:00:00', s: ['Ann', 'Ann'] });
	});

	it('no answer keeps what was known; older records (a service ignoring from_date) are not new', () => {
		expect(newSignatures(null, [])).toEqual({ fresh: [], next: null });
		const previous = { t: '2030-01-02 00:00:00', s: ['Ann'] };
		expect(newSignatures(previous, [sig('2030-01-01 00:00:00', 'Old')])).toEqual({
			fresh: [],
			next: previous,
		});
	});

	it('fromDate: the remembered second, or none for a file not seen before', () => {
		const state = {
			v: 1 as const,
			scope: 's',
			files: { f1: { t: '2030-01-02 00:00:00', s: ['Ann'] }, f2: null },
		};
		expect([
			fromDate(state, 'f1'),
			fromDate(state, 'f2'),
			fromDate(state, 'f3'),
			fromDate(undefined, 'f1'),
		]).toEqual(['2030-01-02 00:00:00', undefined, undefined, undefined]);
	});
});

describe('answers and input', () => {
	it('keeps plausible records only and names the file', () => {
		expect(
			recordsOf(
				[{ signing_timestamp: '2030-01-01 00:00:00', signer_name: 'Ann' }, { foo: 1 }, null],
				'h',
			),
		).toEqual([sig('2030-01-01 00:00:00', 'Ann', 'h')]);
		expect(recordsOf({ error: 'x' }, 'h')).toEqual([]);
	});

	it('orders by signing time, then file', () => {
		const ordered = orderSignatures([
			sig('2030-01-01 00:00:01', 'A', 'b'),
			sig('2030-01-01 00:00:01', 'A', 'a'),
			sig('2030-01-01 00:00:00', 'Z', 'z'),
		]);
		expect(ordered.map((r) => r.file_hash)).toEqual(['z', 'a', 'b']);
	});

	it('parses hashes and file links, refusing anything else before a request', () => {
		expect(parseFileList('abc, https://www.example.test/f/def\nabc')).toEqual(['abc', 'def']);
		expect(() => parseFileList('https://www.example.test/u/folder')).toThrow(
			/not a file hash or file link/,
		);
		expect(() => parseFileList('a b')).toThrow(/not a file hash/);
		expect(() => parseFileList(' ')).toThrow(/No file given/);
	});
});
