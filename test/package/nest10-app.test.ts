// Nest 10 on the Fastify 4 line: see ./nest-app.ts
import { nestAppTests } from './nest-app'

nestAppTests(10, 4, 0)
