// Which other instances are alive: the one place that knows. Every instance publishes a heartbeat
// on the bus; any message from an instance proves it alive too. An instance silent for
// HEARTBEAT_LAPSE_MS is presumed dead ("lapsed"): its presences vanish and the survivors store
// what it had relayed but not confirmed as stored. An instance heard from again after a lapse
// (it was paused, or its bus connection was cut) is treated as new: "returned", and resynced
// with in both directions, since nobody published to it meanwhile. An instance that stops
// gracefully says goodbye once its rooms are stored: it has "left", handled as a lapse at once,
// without the Store reads a lapse brings (nothing of it can be stored that was not relayed).
import type { Logger } from 'pino';
import type { Bus } from './bus.ts';
import { decodeHeartbeat, encodeHeartbeat, INSTANCES_CHANNEL } from './protocol.ts';

export const HEARTBEAT_MS = 1000;
/** An instance silent this long is presumed dead. */
export const HEARTBEAT_LAPSE_MS = 3500;

type Listener = (instance: string) => void;
/** How an instance went: silent past the lapse ("lapsed"), or said goodbye ("left"). */
export type Departure = 'lapsed' | 'left';
type DepartureListener = (instance: string, how: Departure) => void;

export class Instances {
  private readonly lastHeard = new Map<string, number>();
  /** Instances that lapsed: hearing one again means it returned (and must be resynced with). */
  private readonly lapsed = new Set<string>();
  private readonly lapseListeners: DepartureListener[] = [];
  private readonly returnListeners: Listener[] = [];
  private readonly joinListeners: Listener[] = [];
  private readonly tickListeners: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastTick = 0;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly bus: Bus,
    readonly self: string,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.bus.subscribe(INSTANCES_CHANNEL, (data) => {
      const heartbeat = decodeHeartbeat(data);
      if (heartbeat === null) return;
      if (heartbeat.leaving) this.left(heartbeat.instance);
      else this.heard(heartbeat.instance);
    });
    this.lastTick = Date.now();
    this.tick();
    this.timer = setInterval(() => this.tick(), HEARTBEAT_MS);
    this.timer.unref();
  }

  // The other instance's name is logged as `peer`: every line already carries this instance's
  // name as `instance` (the logger's base), and a second `instance` key made the line read, to
  // any JSON parser, as if the dead instance had logged its own death.

  /** Any message from an instance proves it alive. */
  heard(instance: string): void {
    if (instance === this.self) return;
    const known = this.lastHeard.has(instance);
    this.lastHeard.set(instance, Date.now());
    if (known) return;
    if (this.lapsed.delete(instance)) {
      this.log.warn(
        { peer: instance },
        'instance heard from again after its heartbeat lapsed; resyncing with it',
      );
      this.emit(this.returnListeners, instance);
    } else this.emit(this.joinListeners, instance);
  }

  /** An instance said goodbye (a graceful stop, its rooms stored): forget it now. */
  private left(instance: string): void {
    if (instance === this.self || !this.lastHeard.delete(instance)) return;
    this.log.info({ peer: instance }, 'instance stopped and said goodbye');
    this.emit(this.lapseListeners, instance, 'left');
  }

  /** Whether any other instance is alive on the bus. */
  othersAlive(): boolean {
    return this.lastHeard.size > 0;
  }

  /** How many other instances are alive on the bus (asked for every incoming edit: no list built). */
  aliveCount(): number {
    return this.lastHeard.size;
  }

  /** An instance's heartbeat lapsed (presume it dead), or it said goodbye. */
  onLapse(listener: DepartureListener): void {
    this.lapseListeners.push(listener);
  }

  /** An instance that had lapsed was heard from again. */
  onReturn(listener: Listener): void {
    this.returnListeners.push(listener);
  }

  /** An instance was heard from for the first time. */
  onJoin(listener: Listener): void {
    this.joinListeners.push(listener);
  }

  /** Called once per heartbeat period, after lapses are handled (for slow housekeeping). */
  onTick(listener: () => void): void {
    this.tickListeners.push(listener);
  }

  private tick(): void {
    const now = Date.now();
    // This instance was itself stalled (GC, SIGSTOP): the others have presumed it dead and
    // stopped publishing to it. Everyone it still knows is treated as returned.
    const stalledMs = now - this.lastTick;
    const stalled = stalledMs > HEARTBEAT_LAPSE_MS;
    this.lastTick = now;
    this.bus.publish(INSTANCES_CHANNEL, encodeHeartbeat(this.self));
    if (stalled) {
      this.log.warn({ stalledMs }, 'this instance stalled; resyncing with the others');
      for (const instance of this.lastHeard.keys()) this.emit(this.returnListeners, instance);
    }
    for (const [instance, heard] of this.lastHeard) {
      if (now - heard < HEARTBEAT_LAPSE_MS || stalled) continue;
      this.lastHeard.delete(instance);
      this.lapsed.add(instance);
      this.log.warn({ peer: instance }, 'instance heartbeat lapsed; presuming it dead');
      this.emit(this.lapseListeners, instance, 'lapsed');
    }
    this.emit(this.tickListeners);
  }

  /** Calls each listener; one that throws is logged and does not stop the others. */
  private emit<Args extends unknown[]>(listeners: ((...args: Args) => void)[], ...args: Args): void {
    for (const listener of listeners) {
      try {
        listener(...args);
      } catch (err) {
        this.log.error({ err }, 'instance listener failed');
      }
    }
  }

  /** Stops the heartbeat; `goodbye` once every room is stored (a graceful stop), so the others need not read the Store for us. */
  async stop(goodbye = false): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (goodbye && this.bus.isHealthy())
      this.bus.publish(INSTANCES_CHANNEL, encodeHeartbeat(this.self, true));
    // An unreachable bus must not hold up a shutdown.
    const unsubscribing = this.unsubscribe?.().catch(() => undefined);
    if (this.bus.isHealthy()) await unsubscribing;
  }
}
