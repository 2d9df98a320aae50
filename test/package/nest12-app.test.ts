// Nest 12 on the Fastify 5 line: see ./nest-app.ts
import { nestAppTests } from './nest-app'

nestAppTests(12, 5, 0)
