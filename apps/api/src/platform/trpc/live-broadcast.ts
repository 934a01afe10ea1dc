import { Logger } from '@nestjs/common';
import type { SystemPermission } from '@rollcall/contracts';
import { TRPCError } from '@trpc/server';
import type { AccessChecks } from '../access/caller-access';
import { holdsAnywhere, scopeOf, type Grants } from '../access/grants';
import type { SessionPrincipal } from '../access/principal';
import { passwordChangeRequiredError, secondFactorEnrolmentRequiredError } from '../access/route-decorators';
import type { LiveFeed } from '../live/live-feed';
import type { LiveConnection } from './live-connection';

/** What a feature broadcasts (its `<area>.live.ts`), and who may see which message of it. */
export interface LiveBroadcastSpec<Message> {
  /** the LiveFeed channel whose pushes carry one commit's messages together, as an array */
  channel: string;
  /** what a subscriber must hold somewhere: checked as the subscription starts and again at every push */
  permission: SystemPermission;
  /** every permission `requirementOf` may name (a message naming another is withheld from everyone) */
  messagePermissions: readonly SystemPermission[];
  /** what a subscriber must hold to be pushed one message: a permission over an account, or held anywhere (null) */
  requirementOf(message: Message): { permission: SystemPermission; accountId: string | null };
}

interface Follower {
  path: string;
  /** ends the subscription's stream with this error (tRPC answers it for the subscription's id) */
  end(error: unknown): void;
}

/** subscribers who may see the same subset of every push: one filter and one encoding per push */
interface Audience {
  /** one member's session as resolved for this push: the audience's verdicts are taken on it */
  principal: SessionPrincipal;
  members: LiveConnection[];
}

type Verdict = { connection: LiveConnection; principal: SessionPrincipal; error: null } | { connection: LiveConnection; principal: null; error: unknown };

/**
 * A live channel pushed to its subscribers per audience (docs/adr/0024). The subscription stays a
 * tRPC subscription (its start, its permission, its stop, its errors and the socket's limits are
 * tRPC's and permittedProcedure's), but its stream yields nothing: each push is written here, once
 * per audience, to every socket of the audience.
 *
 * For each push, in order: every subscribed socket's session is resolved again (through the
 * credential cache; an ended session closes its socket with 4401, as before); the sockets are
 * grouped by what their grants let them see (where each permission of the channel is held, and
 * whether the password must be changed first); per audience the subscription's own permission is
 * checked, the messages are filtered with one member's grants (every member's verdicts are the
 * same: they depend on nothing else) and the visible ones encoded once; per socket only the
 * subscription id's frame beginning is put before the payload (subscription-wire.ts) and written. A
 * socket whose grants changed is in its new audience at the next push; one that lost the permission
 * has its subscription ended with FORBIDDEN, as any subscription's check ends it.
 */
export class LiveBroadcast<Message> {
  private readonly logger = new Logger('live');
  private readonly followers = new Map<LiveConnection, Set<Follower>>();
  private readonly paths = new Set<string>();
  /** the permissions whose scope decides an audience, the subscription's own first */
  private readonly permissions: readonly SystemPermission[];
  /** audience keys by grants: the credential cache hands out the same grants until they change */
  private readonly scopeKeys = new WeakMap<Grants, string>();
  private access: AccessChecks | null = null;
  /** pushes go out one after the other, so a socket gets them in order */
  private delivering: Promise<void> = Promise.resolve();
  private readonly warnedAbout = new Set<string>();

  constructor(
    feed: LiveFeed,
    private readonly spec: LiveBroadcastSpec<Message>,
  ) {
    this.permissions = [...new Set([spec.permission, ...spec.messagePermissions])];
    feed.emitter.on(spec.channel, (messages: readonly Message[]) => {
      if (this.followers.size === 0 || messages.length === 0) return;
      this.delivering = this.delivering.then(() => this.deliver(messages)).catch((error: unknown) => this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error)));
    });
  }

  /**
   * A subscription's stream on a console socket: it yields nothing (the pushes are written by the
   * broadcast) and ends when tRPC stops it, or with the error that ended it here.
   */
  follow(connection: LiveConnection | undefined, path: string, signal?: AbortSignal): AsyncIterable<Message[], void> {
    if (!connection) throw new TRPCError({ code: 'METHOD_NOT_SUPPORTED', message: 'Subscriptions are served over the WebSocket (/ws) only' });
    this.access ??= connection.access;
    return {
      [Symbol.asyncIterator]: () => {
        let settle: (error?: unknown) => void = () => undefined;
        const ended = new Promise<void>((resolve, reject) => {
          settle = (error) => (error === undefined ? resolve() : reject(error));
        });
        let follower: Follower | null = null;
        const stop = () => {
          if (follower) this.remove(connection, follower);
          settle();
        };
        if (signal?.aborted) stop();
        else signal?.addEventListener('abort', stop, { once: true });
        return {
          next: async () => {
            // joined on the first read: tRPC reads once it has accepted the subscription, just before it answers `started`
            if (!follower && !signal?.aborted) {
              follower = { path, end: (error) => settle(error) };
              this.add(connection, follower);
            }
            await ended;
            return { done: true as const, value: undefined };
          },
          return: async () => {
            stop();
            return { done: true as const, value: undefined };
          },
        };
      },
    };
  }

  private add(connection: LiveConnection, follower: Follower): void {
    let followers = this.followers.get(connection);
    if (!followers) this.followers.set(connection, (followers = new Set()));
    followers.add(follower);
    this.paths.add(follower.path);
  }

  private remove(connection: LiveConnection, follower: Follower): void {
    const followers = this.followers.get(connection);
    if (!followers?.delete(follower)) return;
    if (followers.size === 0) this.followers.delete(connection);
  }

  /** ends every subscription of this broadcast on the socket with the error, and pushes it nothing more */
  private endAll(connection: LiveConnection, error: unknown): void {
    const followers = this.followers.get(connection);
    if (!followers) return;
    this.followers.delete(connection);
    for (const follower of followers) follower.end(error);
  }

  private async deliver(messages: readonly Message[]): Promise<void> {
    const access = this.access;
    if (!access) return;
    // every socket's session as it is now: a look-up in the credential cache while nothing changed
    const sessions = await Promise.all(
      [...this.followers.keys()].map((connection) =>
        connection.current().then(
          (principal): Verdict => ({ connection, principal, error: null }),
          (error: unknown): Verdict => ({ connection, principal: null, error }),
        ),
      ),
    );
    const audiences = new Map<string, Audience>();
    for (const session of sessions) {
      // ended (the socket is closing with 4401) or not checkable now (SERVICE_UNAVAILABLE): as any subscription's check
      if (!session.principal) {
        this.endAll(session.connection, session.error);
        continue;
      }
      const key = this.audienceOf(session.principal);
      let audience = audiences.get(key);
      // a copy: the connection's own principal is updated in place by its next resolution
      if (!audience) audiences.set(key, (audience = { principal: { ...session.principal }, members: [] }));
      audience.members.push(session.connection);
    }
    await Promise.all([...audiences.values()].map((audience) => this.deliverTo(audience, messages, access)));
  }

  private async deliverTo({ principal, members }: Audience, messages: readonly Message[], access: AccessChecks): Promise<void> {
    let visible: Message[];
    try {
      // the subscription's own check (permittedProcedure's), once for the audience: it depends on nothing else
      if (principal.passwordChangeRequired) throw passwordChangeRequiredError();
      if (principal.secondFactorEnrolmentRequired) throw secondFactorEnrolmentRequiredError();
      await access.authorize(principal, this.spec.permission, [], { input: undefined });
      visible = await this.visibleTo(principal, messages, access);
    } catch (error) {
      for (const member of members) this.endAll(member, error);
      return;
    }
    if (visible.length === 0) return;
    const payload = JSON.stringify(visible);
    // one frame per distinct subscription id in the audience (a console numbers its own requests)
    const frames = new Map<string, Buffer>();
    for (const member of members) {
      // stopped, or ended, while this push was being decided
      if (!this.followers.has(member)) continue;
      for (const path of this.paths) {
        for (const prefix of member.wire.framePrefixes(path)) {
          let frame = frames.get(prefix);
          if (!frame) frames.set(prefix, (frame = Buffer.from(`${prefix}${payload}}}`)));
          member.sendFrame(frame);
        }
      }
    }
  }

  /** the messages one audience may see, with one verdict per permission and account of the push */
  private async visibleTo(principal: SessionPrincipal, messages: readonly Message[], access: AccessChecks): Promise<Message[]> {
    const verdicts = new Map<string, Promise<boolean>>();
    const mayReceive = (message: Message): boolean | Promise<boolean> => {
      const { permission, accountId } = this.spec.requirementOf(message);
      if (!this.permissions.includes(permission)) {
        // the audiences are not drawn by it: withheld from everyone rather than shown to the wrong one
        if (!this.warnedAbout.has(permission)) this.logger.warn(`live ${this.spec.channel}: a message needs ${permission}, which is not among the channel's permissions; withheld`);
        this.warnedAbout.add(permission);
        return false;
      }
      const key = `${permission} ${accountId ?? ''}`;
      let verdict = verdicts.get(key);
      if (!verdict) {
        verdict = !holdsAnywhere(principal.grants, permission) ? Promise.resolve(false) : accountId === null ? Promise.resolve(true) : access.permits(principal, permission, 'account', accountId);
        verdicts.set(key, verdict);
      }
      return verdict;
    };
    const allowed = await Promise.all(messages.map(mayReceive));
    return messages.filter((_, index) => allowed[index]);
  }

  /**
   * Who sees the same: where each of the channel's permissions is held (everywhere, or the set of
   * organizations with their subtrees), and whether the session must change its password or enrol
   * a second factor first.
   * AccessChecks.permits decides on the scope of the permission alone (docs/adr/0011), so two
   * principals with the same key get the same verdict on every message.
   */
  private audienceOf(principal: SessionPrincipal): string {
    let scopes = this.scopeKeys.get(principal.grants);
    if (scopes === undefined) {
      scopes = this.permissions
        .map((permission) => {
          const scope = scopeOf(principal.grants, permission);
          return scope === 'everywhere' ? '*' : [...scope].sort().join(',');
        })
        .join(';');
      this.scopeKeys.set(principal.grants, scopes);
    }
    // a restricted session never shares an audience with a free one: its verdict is the restriction's
    return `${principal.passwordChangeRequired ? '!' : ''}${principal.secondFactorEnrolmentRequired ? '2' : ''}|${scopes}`;
  }
}
