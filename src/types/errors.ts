/** The error type hooks and error handlers receive (every trellis error has a FST_ERR_* code). */
export interface ValidationResult {
  keyword: string
  instancePath: string
  schemaPath: string
  params: Record<string, string | string[]>
  message?: string
}

export interface TrellisError extends Error {
  code: string
  name: string
  statusCode?: number
  /** Set on validation errors: Ajv's errors for the failing part of the request. */
  validation?: ValidationResult[]
}

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { TrellisError as FastifyError }
