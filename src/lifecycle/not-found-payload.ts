/** The body of the default 404 answer (Fastify 4.3's wording). */
export function basicNotFoundPayload (method: string, url: string): { message: string, error: string, statusCode: number } {
  return { message: `Route ${method}:${url} not found`, error: 'Not Found', statusCode: 404 }
}
