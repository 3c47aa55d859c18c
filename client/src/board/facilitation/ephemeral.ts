// The ephemeral half of the facilitator's kit (docs/api.md §3, §14): the laser pointer's trail, cursor
// chat and reactions. They live only in presence (awareness), never in the document. Pure
// functions, tested in Node; the rendering is in Ephemeral.tsx.
//
// Times: a sender stamps its own clock (`t` of a laser point, `at` of a reaction), which may be
// minutes off the receiver's. Receivers therefore never compare those stamps with their own
// clock: a trail's age is measured from when its state arrived, and a reaction is new when its
// `at` differs from the last one seen from that sender.
import { MAX_LASER_POINTS } from '@tandem/shared';

export type LaserPoint = [x: number, y: number, t: number];

/** A laser point fades out over this long. */
export const LASER_FADE_MS = 1000;
/** Pointer samples closer together than this replace the trail's tip instead of adding a point
 * (at most ~60 points a second, so a full second of trail fits in `MAX_LASER_POINTS`). */
export const LASER_SAMPLE_MS = 16;
/** A reaction floats up for this long. */
export const REACTION_FLOAT_MS = 2000;
/** At most one reaction per this long from one person: a few a second, far under the presence
 * rate of 30 a second (`limits.cursorPerSecond`), so each one is sent on its own. */
export const REACTION_GAP_MS = 250;

/** The reactions offered, with the accessible name of each button. */
export const REACTIONS = [
  { emoji: '👍', name: 'Thumbs up' },
  { emoji: '❤️', name: 'Heart' },
  { emoji: '🎉', name: 'Party' },
  { emoji: '😂', name: 'Laughing' },
  { emoji: '😮', name: 'Surprised' },
  { emoji: '👏', name: 'Applause' },
] as const;

const round = (v: number) => Math.round(v * 10) / 10;

/**
 * The trail after a pointer sample at board point (x, y) at time `now`: points older than the
 * fade are dropped, a sample moves the tip until the tip is `LASER_SAMPLE_MS` after the point before it, and at most
 * `MAX_LASER_POINTS` (the presence schema's limit) are kept, the newest.
 */
export function addLaserPoint(
  points: readonly LaserPoint[],
  x: number,
  y: number,
  now: number,
): LaserPoint[] {
  const kept = pruneLaser(points, now);
  const point: LaserPoint = [round(x), round(y), Math.round(now)];
  // The tip follows the pointer until it is a sample's time after the point before it; then it
  // stays, and the next sample starts a new tip.
  const tip = kept[kept.length - 1];
  const before = kept[kept.length - 2];
  if (tip && before && tip[2] - before[2] < LASER_SAMPLE_MS) kept[kept.length - 1] = point;
  else kept.push(point);
  return kept.length > MAX_LASER_POINTS ? kept.slice(kept.length - MAX_LASER_POINTS) : kept;
}

/** The points of a trail that have not faded yet at `now` (the sender's own clock). */
export function pruneLaser(points: readonly LaserPoint[], now: number): LaserPoint[] {
  return points.filter((p) => now - p[2] < LASER_FADE_MS);
}

export interface TrailSegment {
  from: { x: number; y: number };
  to: { x: number; y: number };
  /** 1 at the tip, falling to 0 as the segment fades. */
  strength: number;
}

/**
 * The visible segments of a trail received at `receivedAt` and seen at `now` (both on the
 * receiver's clock). A point's age is the time since the state arrived plus how much older it was
 * than the newest point then, so the sender's clock never matters.
 */
export function trailSegments(
  points: readonly LaserPoint[],
  receivedAt: number,
  now: number,
): TrailSegment[] {
  if (points.length === 0) return [];
  const newest = Math.max(...points.map((p) => p[2]));
  const since = Math.max(0, now - receivedAt);
  const out: TrailSegment[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const age = since + (newest - b[2]);
    if (age >= LASER_FADE_MS) continue;
    out.push({ from: { x: a[0], y: a[1] }, to: { x: b[0], y: b[1] }, strength: 1 - age / LASER_FADE_MS });
  }
  return out;
}

/** The tip of a trail while it still shows, else null. */
export function trailTip(
  points: readonly LaserPoint[],
  receivedAt: number,
  now: number,
): { x: number; y: number; strength: number } | null {
  if (points.length === 0) return null;
  let tip = points[0]!;
  for (const p of points) if (p[2] >= tip[2]) tip = p;
  const age = Math.max(0, now - receivedAt);
  return age < LASER_FADE_MS ? { x: tip[0], y: tip[1], strength: 1 - age / LASER_FADE_MS } : null;
}

/** The sender's reaction, or null when it comes too soon after the previous one. */
export function nextReaction(
  emoji: string,
  now: number,
  previousAt: number | null,
): { emoji: string; at: number } | null {
  if (previousAt !== null && now - previousAt < REACTION_GAP_MS && now >= previousAt) return null;
  return { emoji, at: Math.round(now) };
}

/**
 * Reactions that are new since the last look: `seen` maps a sender to the `at` of the last
 * reaction taken from them, and is updated. A sender whose reaction was cleared is forgotten, so
 * the same emoji sent again floats again.
 */
export function newReactions<K>(
  seen: Map<K, number>,
  current: Iterable<{ key: K; reaction: { emoji: string; at: number } | null | undefined }>,
): { key: K; emoji: string }[] {
  const out: { key: K; emoji: string }[] = [];
  const present = new Set<K>();
  for (const { key, reaction } of current) {
    if (!reaction) continue;
    present.add(key);
    if (seen.get(key) === reaction.at) continue;
    seen.set(key, reaction.at);
    out.push({ key, emoji: reaction.emoji });
  }
  for (const key of [...seen.keys()]) if (!present.has(key)) seen.delete(key);
  return out;
}
