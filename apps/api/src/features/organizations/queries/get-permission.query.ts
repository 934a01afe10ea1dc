import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TPermission } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { permissionNotFound } from '../commands/organization-access';
import { loadPermissions } from './access-rows';

export class GetPermissionQuery {
  constructor(readonly permissionId: string) {}
}

/** One permission as the lists show it (what a create or a rename answers); 404 permission.not_found. */
@QueryHandler(GetPermissionQuery)
export class GetPermissionHandler implements IQueryHandler<GetPermissionQuery, TPermission> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ permissionId }: GetPermissionQuery): Promise<TPermission> {
    const [permission] = await loadPermissions(this.db, { id: permissionId });
    if (!permission) throw permissionNotFound();
    return permission;
  }
}
