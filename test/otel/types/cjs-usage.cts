// Compiled (not run) by test/otel/entry.test.ts as a CommonJS module with node16 resolution.
import trellis = require('trellis')
import otel = require('trellis/otel')

const app = trellis.default()
const options: otel.OtelOptions = { phaseSpans: false }
app.register(otel.default, options)
app.register(otel.otel, {})
// @ts-expect-error ignore takes the raw request
app.register(otel.default, { ignore: 'health' })
