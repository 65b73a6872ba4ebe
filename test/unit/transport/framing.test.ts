// What a downloaded body is checked against, by how its answer is framed (RFC 9112 §6.3).
import { expectedBodyBytes } from '../../../nodes/shared/transport/framing';

it('measures a length-framed body by its Content-Length', () => {
	expect(expectedBodyBytes({ 'content-length': '5' })).toBe(5);
	expect(expectedBodyBytes({ 'content-length': '5' }, 5)).toBe(5);
});

it('never compares a chunked body with a Content-Length: only with a size known beforehand', () => {
	expect(expectedBodyBytes({ 'transfer-encoding': 'chunked', 'content-length': '3' })).toBeNaN();
	expect(expectedBodyBytes({ 'transfer-encoding': 'chunked', 'content-length': '3' }, 5)).toBe(5);
});

it('refuses a body that ends with the connection unless the size is known beforehand', () => {
	expect(expectedBodyBytes({})).toBe('unframed');
	expect(expectedBodyBytes({ 'transfer-encoding': 'gzip' })).toBe('unframed');
	expect(expectedBodyBytes({}, Number.NaN)).toBe('unframed');
	expect(expectedBodyBytes({}, 7)).toBe(7);
});

it('reads the same Content-Length sent twice (joined "5, 5", as the parser accepts it) as that length', () => {
	expect(expectedBodyBytes({ 'content-length': '5, 5' })).toBe(5);
	expect(expectedBodyBytes({ 'content-length': '5,5' }, 5)).toBe(5);
	expect(expectedBodyBytes({ 'content-length': '5, 2' })).toBe('unframed');
});
