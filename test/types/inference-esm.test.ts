// Schema inference type tests: the positive check of the .mts fixtures (see inference-harness.ts).
import { inferenceTypeTests } from './inference-harness'

inferenceTypeTests('mts', 'positive')
