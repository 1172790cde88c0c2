import http from 'node:http';

// A small keep-alive HTTP/1.1 JSON client for the benchmarks that drive their own request
// sequences (each wager's POST then PUT): node:http with one socket per worker.

export interface JsonResponse {
  status: number;
  body: unknown;
}

export function createClient(baseUrl: string, sockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const { hostname, port } = new URL(baseUrl);
  return {
    request(
      method: string,
      path: string,
      body: unknown,
      headers: Record<string, string>,
    ): Promise<JsonResponse> {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const request = http.request(
          {
            agent,
            hostname,
            port,
            method,
            path,
            headers: {
              ...headers,
              ...(payload
                ? {
                    'content-type': 'application/json',
                    'content-length': Buffer.byteLength(payload),
                  }
                : {}),
            },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              let parsed: unknown = text;
              try {
                parsed = text ? JSON.parse(text) : null;
              } catch {
                // not JSON: keep the text
              }
              resolve({ status: response.statusCode ?? 0, body: parsed });
            });
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end(payload);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** A small deterministic PRNG (mulberry32), so every run shuffles the same way. */
export function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(items: T[], seed: number): T[] {
  const next = random(seed);
  const out = [...items];
  for (let index = out.length - 1; index > 0; index -= 1) {
    const other = Math.floor(next() * (index + 1));
    [out[index], out[other]] = [out[other]!, out[index]!];
  }
  return out;
}
