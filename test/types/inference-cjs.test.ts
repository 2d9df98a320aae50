// Schema inference type tests: the positive check of the .cts fixtures (see inference-harness.ts).
import { inferenceTypeTests } from './inference-harness'

inferenceTypeTests('cts', 'positive')
