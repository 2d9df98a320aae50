// Nest 11 on the Fastify 5 line: see ./nest-app.ts
import { nestAppTests } from './nest-app'

nestAppTests(11, 5, 0)
