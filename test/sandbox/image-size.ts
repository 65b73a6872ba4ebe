import fs from 'node:fs';

export interface Dimensions {
	Width: number;
	Height: number;
}

/**
 * Width and height from the stored bytes' headers, for `api/get_file_info.php` CustomInfo: PNG (IHDR),
 * GIF (logical screen) and JPEG (the first SOF marker, walking segment lengths so EXIF blocks are skipped
 * without reading them). Reads only the few bytes it needs; undefined when the bytes are not a known image.
 */
export function imageDimensions(blobPath: string): Dimensions | undefined {
	const fd = fs.openSync(blobPath, 'r');
	try {
		const read = (position: number, length: number): Buffer => {
			const buffer = Buffer.alloc(length);
			const got = fs.readSync(fd, buffer, 0, length, position);
			return buffer.subarray(0, got);
		};
		const head = read(0, 26);
		if (
			head.length >= 24 &&
			head.readUInt32BE(0) === 0x89504e47 &&
			head.toString('latin1', 12, 16) === 'IHDR'
		) {
			return { Width: head.readUInt32BE(16), Height: head.readUInt32BE(20) };
		}
		if (head.length >= 10 && /^GIF8[79]a$/.test(head.toString('latin1', 0, 6))) {
			return { Width: head.readUInt16LE(6), Height: head.readUInt16LE(8) };
		}
		if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8) return jpegDimensions(read);
		return undefined;
	} finally {
		fs.closeSync(fd);
	}
}

/** SOF0–SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) =>
	marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegDimensions(
	read: (position: number, length: number) => Buffer,
): Dimensions | undefined {
	let offset = 2;
	for (let guard = 0; guard < 10_000; guard++) {
		const header = read(offset, 9);
		if (header.length < 4 || header[0] !== 0xff) return undefined;
		const marker = header[1];
		// Fill bytes and parameterless markers (RSTn, TEM) have no length field.
		if (marker === 0xff) {
			offset += 1;
			continue;
		}
		if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
			offset += 2;
			continue;
		}
		if (marker === 0xd9 || marker === 0xda) return undefined;
		if (isStartOfFrame(marker)) {
			if (header.length < 9) return undefined;
			return { Width: header.readUInt16BE(7), Height: header.readUInt16BE(5) };
		}
		offset += 2 + header.readUInt16BE(2);
	}
	return undefined;
}
