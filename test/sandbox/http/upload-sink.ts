import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadedFile } from './request.ts';

/** The EICAR anti-virus test string: any upload containing it counts as infected (490). */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
const EICAR_BYTES = Buffer.from(EICAR, 'latin1');

/**
 * Streams one multipart file part to a temp file while hashing it and scanning for EICAR across chunk
 * borders. Past `cap` bytes it keeps counting but stops writing, so an over-limit upload cannot fill the disk.
 */
export function sinkFile(
	source: Readable,
	meta: { field: string; filename: string; declaredType: string },
	tmpDir: string,
	cap: number,
): { file: UploadedFile; done: Promise<void>; abort: () => void } {
	const file: UploadedFile = {
		...meta,
		tmpPath: path.join(tmpDir, `upload-${randomUUID()}`),
		size: 0,
		sha256: '',
		virus: false,
		overCap: false,
	};
	const hash = createHash('sha256');
	// The last bytes seen, too few to hold the string: a match across a chunk border starts in them.
	const keep = EICAR_BYTES.length - 1;
	let tail = Buffer.alloc(0);
	const scanner = new Transform({
		transform(chunk: Buffer, _encoding, callback) {
			file.size += chunk.length;
			if (!file.virus) {
				// Only the border is copied, never the whole chunk: a large upload must not cost the sandbox a copy of itself.
				const border = Buffer.concat([tail, chunk.subarray(0, keep)]);
				if (border.indexOf(EICAR_BYTES) !== -1 || chunk.indexOf(EICAR_BYTES) !== -1)
					file.virus = true;
				tail = Buffer.from(
					chunk.length >= keep ? chunk.subarray(chunk.length - keep) : border.subarray(-keep),
				);
			}
			if (file.size > cap) {
				file.overCap = true;
				return callback();
			}
			hash.update(chunk);
			callback(null, chunk);
		},
	});
	// Room for a few socket reads while the disk write before them runs, so the upload's pace is not one
	// write's round trip per 64 KiB read.
	const target = fs.createWriteStream(file.tmpPath, { highWaterMark: 1 << 20 });
	const done = pipeline(source, scanner, target).then(() => {
		file.sha256 = hash.digest('hex');
	});
	const abort = () => {
		source.resume();
		scanner.destroy();
		target.destroy();
	};
	return { file, done, abort };
}

export function removeTemp(files: UploadedFile[]): void {
	for (const file of files) fs.rm(file.tmpPath, { force: true }, () => undefined);
}
