/**
 * What `trellis build` records while the application's routes compile: for every route schema the
 * default compilers compile, its key and what the build stores (Ajv's standalone code, the
 * serializer's generated source and constants), or that it cannot be stored (compiled at every
 * start, by design). One recording per process at a time (the build command's).
 */

/** A serializer as the build stores it: its generated source and the JavaScript text of its constants. */
export interface RecordedSerializer { source: string, constsText: string }

export interface AotRecorder {
  readonly validators: Map<string, string>
  readonly serializers: Map<string, RecordedSerializer>
  /** Keys of schemas the build cannot store: compiled at start without a warning. */
  readonly atStart: Set<string>
  /** Keys of the shared-schema sets (with Ajv options) Ajv accepted. */
  readonly sharedSets: Set<string>
}

let active: AotRecorder | null = null

/** Starts recording: default compilers created from now on record what they compile. */
export function startAotRecording (): AotRecorder {
  active = { validators: new Map(), serializers: new Map(), atStart: new Set(), sharedSets: new Set() }
  return active
}

export function stopAotRecording (): void {
  active = null
}

/** The recording under way, or null (a normal process). */
export function aotRecorder (): AotRecorder | null {
  return active
}
