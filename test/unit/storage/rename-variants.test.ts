/**
 * After a lost rename answer the file (known by its hash) is read again: a name the service may have given the
 * requested one counts as applied. The documents show a taken name suffixed "such as (1)", so the plausible
 * numbered styles are all accepted; other names are not.
 */
import { isNameOrVariant } from '../../../nodes/Storage/actions/common/rename-proof';

describe('isNameOrVariant', () => {
	it.each([
		['report.pdf', 'report.pdf'],
		['report (1).pdf', 'report.pdf'],
		['report(2).pdf', 'report.pdf'],
		['report_3.pdf', 'report.pdf'],
		['report-4.pdf', 'report.pdf'],
		['archive (1)', 'archive'],
	])('%s is what the service may have stored for %s', (stored, requested) => {
		expect(isNameOrVariant(stored, requested, requested.includes('.'))).toBe(true);
	});

	it.each([
		['report.pdf.bak', 'report.pdf'],
		['my report.pdf', 'report.pdf'],
		['report (1).txt', 'report.pdf'],
		['report copy.pdf', 'report.pdf'],
		['reports.pdf', 'report.pdf'],
		['report (x).pdf', 'report.pdf'],
	])('%s is not a stored form of %s', (stored, requested) => {
		expect(isNameOrVariant(stored, requested, true)).toBe(false);
	});

	it("puts a folder name's suffix at its end, dots and all", () => {
		expect(isNameOrVariant('v1.2 (1)', 'v1.2', false)).toBe(true);
		expect(isNameOrVariant('v1 (1).2', 'v1.2', false)).toBe(false);
	});
});
