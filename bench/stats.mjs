// Small statistics shared by the bench scripts.

/** The median of a list of numbers (the list is not changed). */
export function median (xs) {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2
}
