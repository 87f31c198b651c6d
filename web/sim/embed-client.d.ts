// Types of vilab/embed-client (web/sim/embed-client.js): a promise-based client for a
// vilab page embedded in an <iframe>. The protocol: docs/embedding.md.
import type { Diagnostics, NormalizedScenario, Scenario } from './vilab.js';

/** A request the page refused (its vilab:error), or one not answered within the timeout (code 'timeout'). */
export class EmbedError extends Error {
  /** The field the page named, e.g. 'scenario.h' or 'steps'; 'origin' when this host may not command. */
  readonly field: string | null;
  /** The request's type, e.g. 'vilab:step'. */
  readonly request: string | null;
  /** 'timeout' when no reply came in time, else null. */
  readonly code: 'timeout' | null;
}

/** Where the run is. */
export interface Position {
  step: number;
  /** Simulated time (s). */
  time: number;
  /** A's state hash (16 hex digits): equal fingerprints at equal steps mean the same bits. */
  fingerprint: string | null;
}

/** The reply to get(): the run now. */
export interface StateReply extends Position {
  type: 'vilab:state';
  id: string | number | null;
  protocol: number;
  version: string;
  playing: boolean;
  scenario: NormalizedScenario;
  /** B's integrator id, or null when nothing is compared. */
  compare: string | null;
  diagnostics: Diagnostics | null;
  /** A's energy error: (E − E₀)/|E₀|, or E − E₀ when |E₀| ≤ 1e-12 (energyErrorRelative false); null without a finite energy. */
  energyError: number | null;
  energyErrorRelative: boolean;
  /** The share link of the run at this step (opens the same run; its fingerprint is checked on arrival). */
  shareURL: string;
}

/** The reply to a command, once it is done (a long step: when its last step is taken). */
export interface DoneReply extends Position {
  type: 'vilab:done';
  id: string | number | null;
  request: 'vilab:load' | 'vilab:play' | 'vilab:pause' | 'vilab:step';
  playing: boolean;
}

/** What the reader (or the host, by a command) changed. */
export interface ChangeEvent extends Position {
  type: 'vilab:change';
  change: 'preset' | 'link' | 'system' | 'integrator' | 'h' | 'parameter' | 'initial' | 'compare' | 'pace' | 'play' | 'pause' | 'reset';
  /** The document's paths that changed, e.g. ['params.g'] or ['integrator', 'options.alpha']. */
  fields: string[];
  /** For change 'preset': the preset's id. */
  preset?: string | null;
  source: 'reader' | 'host';
  scenario: NormalizedScenario;
  compare: string | null;
  playing: boolean;
}

export interface ReadyEvent {
  type: 'vilab:ready';
  version: string;
  protocol: number;
  fingerprint: string | null;
}
export interface StepEvent extends Position {
  type: 'vilab:step';
}
export interface RefusalEvent {
  type: 'vilab:refusal';
  track: 'A' | 'B';
  step: number;
  code: string | null;
  message: string;
}
export interface ErrorEvent {
  type: 'vilab:error';
  id: string | number | null;
  field: string;
  message: string;
  request: string | null;
}

export interface EmbedEvents {
  change: ChangeEvent;
  step: StepEvent;
  refusal: RefusalEvent;
  ready: ReadyEvent;
  /** An error that answers no request of this client. */
  error: ErrorEvent;
  state: StateReply;
}

export interface ConnectOptions {
  /** The embedded page's origin; by default that of iframe.src. Messages from any other origin are ignored. */
  origin?: string;
  /** Milliseconds a request waits for its reply (default 10000). */
  timeout?: number;
}

export interface EmbeddedLab {
  /** Resolves once the page answers (its vilab:ready, or a reply to the client's own poll). */
  readonly ready: Promise<{ version: string | null; fingerprint: string | null }>;
  get(): Promise<StateReply>;
  /**
   * Loads a scenario, and with `compare` chooses B (an integrator id of the registry, 'mujoco-rk4' or
   * 'mujoco-implicit' on a mechanism; null: none; absent: B kept where it applies); rejects with
   * EmbedError naming the field ('scenario.h', 'compare', …), the run kept.
   */
  load(scenario: Scenario, compare?: string | null): Promise<DoneReply>;
  play(): Promise<DoneReply>;
  pause(): Promise<DoneReply>;
  /** Pauses, then advances exactly `steps` (1 … 100000) steps. */
  step(steps?: number): Promise<DoneReply>;
  on<K extends keyof EmbedEvents>(kind: K, fn: (event: EmbedEvents[K]) => void): () => void;
  /** Stops listening; pending requests reject. */
  close(): void;
}

/** Connects to the vilab page shown in `iframe` (commands need the host's origin in its origin= keys). */
export function connect(iframe: HTMLIFrameElement, options?: ConnectOptions): EmbeddedLab;
