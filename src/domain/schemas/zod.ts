import { config } from 'zod/v4/core';

// The one way Hunch imports zod: `import { z } from '<…>/domain/schemas/zod'`, never 'zod' itself
// (ESLint enforces it), so this runs before any schema is built.
//
// Zod compiles a faster object parser with `new Function` where eval is allowed, and probes
// for that with a caught `new Function("")` as a schema is built. Our CSP (script-src 'self',
// no 'unsafe-eval') refuses the probe in the browser and Chromium logs it as a Content
// Security Policy issue (Lighthouse's best practices count it). Interpreted parsing costs
// about 0.1 µs more per small object (measured on the wager body), nothing next to a request,
// so the server parses the same way as the client.
config({ jitless: true });

export { z } from 'zod';
