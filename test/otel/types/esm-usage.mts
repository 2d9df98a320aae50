// Compiled (not run) by test/otel/entry.test.ts as an ES module with node16 resolution.
import trellis from 'trellis'
import otel, { type OtelOptions } from 'trellis/otel'

const app = trellis()
const options: OtelOptions = { phaseSpans: true, logCorrelation: false, ignore: (req) => req.url === '/health' }
app.register(otel, options)
app.register(otel)
// @ts-expect-error phaseSpans is a boolean
app.register(otel, { phaseSpans: 'yes' })
