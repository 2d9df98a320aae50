// Schema inference type tests: the negative check of the .cts fixtures (see inference-harness.ts).
import { inferenceTypeTests } from './inference-harness'

inferenceTypeTests('cts', 'negative', 2)
