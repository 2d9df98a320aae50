/**
 * Router paths -> OpenAPI path templates: `/users/:id` -> `/users/{id}`, `:id(^\d+$)` -> `{id}`,
 * `/files/:name.:ext` -> `/files/{name}.{ext}`, `*` -> `{*}`, `::` (an escaped colon) -> `:`.
 */
export function toTemplate (url: string): { path: string, params: string[] } {
  let path = ''
  const params: string[] = []
  for (let i = 0; i < url.length; i++) {
    const c = url[i]
    if (c === ':') {
      if (url[i + 1] === ':') { path += ':'; i++; continue }
      let j = i + 1
      while (j < url.length && !'/-.(:*'.includes(url[j])) j++
      const name = url.slice(i + 1, j)
      if (url[j] === '(') {
        // a regular expression: skip to its closing parenthesis (nesting and escapes respected)
        let depth = 0
        for (; j < url.length; j++) {
          if (url[j] === '\\') { j++; continue }
          if (url[j] === '(') depth++
          else if (url[j] === ')' && --depth === 0) { j++; break }
        }
      }
      params.push(name)
      path += `{${name}}`
      i = j - 1
    } else if (c === '*') {
      params.push('*')
      path += '{*}'
    } else {
      path += c
    }
  }
  return { path: path === '' ? '/' : path, params }
}

/** Methods a 3.0/3.1 Path Item can hold, in the order the specification lists them. */
export const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const
