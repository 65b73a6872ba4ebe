/**
 * Deterministic test content: a byte pattern that does not repeat at small scale, so truncation,
 * reordering or a wrong offset shows up when a download is compared with what was uploaded.
 */
export function fixtureBytes(size: number): Buffer {
	const buffer = Buffer.alloc(size);
	for (let i = 0; i < size; i++) buffer[i] = (i * 31 + (i >> 8) * 7) & 0xff;
	return buffer;
}
