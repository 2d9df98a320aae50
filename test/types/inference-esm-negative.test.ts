// Schema inference type tests: the negative check of the .mts fixtures (see inference-harness.ts).
import { inferenceTypeTests } from './inference-harness'

inferenceTypeTests('mts', 'negative', 20)
