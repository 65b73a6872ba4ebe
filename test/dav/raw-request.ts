import { request } from 'node:http';

export interface RawAnswer {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/**
 * One request to a test DAV server as another client would send it, the answer read whole (the tests look at
 * small XML, iCalendar and vCard bodies).
 */
export function rawRequest(
	base: string,
	method: string,
	target: string,
	headers: Record<string, string>,
	text?: string,
): Promise<RawAnswer> {
	return new Promise((resolve, reject) => {
		const body = text === undefined ? undefined : Buffer.from(text, 'utf8');
		const req = request(
			new URL(target, base),
			{
				method,
				headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...headers },
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body: Buffer.concat(chunks).toString('utf8'),
					}),
				);
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}
