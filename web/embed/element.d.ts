// element.d.ts: types for <posenc-chart> (package entry "posenc/element", which is
// dist/posenc.js: a classic script that registers the element and sets window.posenc) and for
// web/embed/element.js (the same element as an ES module, for pages served with posenc's web/ files).
import type { Posenc } from '../lib/posenc.js';

/** The numbers behind a chart, as its CSV has them. */
export interface ChartData {
  columns: string[];
  rows: Array<Array<number | string | boolean | null>>;
  /** a few charts add measured values they state in their readout */
  measured?: Record<string, unknown>;
}

/** A param value: int and number params are numbers, select params strings, bool params booleans. */
export type ParamValue = number | string | boolean;

/** What mountChart() returns, and <posenc-chart>.ready resolves to. */
export interface ChartHost {
  /** the values drawn now, by param name */
  params(): Record<string, ParamValue>;
  /** sets controls by param name (checked values) and redraws on the next frame */
  set(values: Record<string, ParamValue>): void;
  /** redraws now; returns the data, or null if the chart could not draw (the readout says why) */
  update(): ChartData | null;
  /** re-applies the UI strings (after a language switch) */
  relabel(): void;
  destroy(): void;
  readonly data: ChartData | null;
}

/**
 * <posenc-chart kind="rope-decay" dim="256" base="10000">fallback</posenc-chart>
 * Every param of the chart is an attribute in kebab-case (maxDist -> max-dist; "param-" first
 * where HTML owns the name: style -> param-style) and a property of the param's name (el.maxDist;
 * el.paramStyle). Reading a param property gives the value drawn now; writing it sets the attribute.
 * Events: 'posenc:drawn' (detail: ChartData) after each redraw, 'posenc:error' when it cannot draw.
 */
export declare class PosencChartElement extends HTMLElement {
  /** the chart kind: one of the modules in web/charts/ (default 'rope-decay') */
  kind: string;
  /** show the controls (attribute controls; controls="0" hides them); default true */
  controls: boolean;
  /** show the controls disabled, one picture for everyone (attribute locked, a boolean attribute); default false */
  locked: boolean;
  /** show PNG, SVG, GIF / video and CSV buttons (attribute toolbar); default false */
  toolbar: boolean;
  /** 'auto' (follow prefers-color-scheme, the default), 'light' or 'dark' ('auto' for another attribute value, which the chart notes); one per page: the last set wins */
  theme: 'auto' | 'light' | 'dark';
  /** resolves once the chart has drawn (asking for it starts rendering, even off screen) */
  readonly ready: Promise<ChartHost>;
  /** the numbers behind the chart as last drawn, null before */
  readonly data: ChartData | null;
  params(): Record<string, ParamValue>;
  /** redraws now */
  update(): ChartData | null;
  /** the chart's params, by name (which ones depends on kind) */
  [param: string]: unknown;
}

/** window.posenc, set by dist/posenc.js. */
export interface PosencGlobal {
  /** the kernels (inlined in the script), loaded once */
  load(): Promise<Posenc>;
  /** every chart kind */
  kinds: readonly string[];
  version: string;
}

declare global {
  interface HTMLElementTagNameMap {
    'posenc-chart': PosencChartElement;
  }
  interface Window {
    posenc: PosencGlobal;
  }
}
