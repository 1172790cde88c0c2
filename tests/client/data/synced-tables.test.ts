import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  MIRROR_SHAPE,
  MIRROR_TABLES,
  PAGE_FIELDS,
  primaryKeyOf,
  type MirrorPullResponse as DevicePull,
} from '../../../src/client/data/synced-tables';
import {
  MIRROR_PAGE_FIELDS,
  type MirrorPullResponse as ServerPull,
} from '../../../src/server/mirror/synced-tables';

// A synced table is declared once on each side: the server's reader with its fields' schemas,
// the device's table with its store and row type. Nothing else lists the pull's fields, so
// these two lists must agree with each other, in names and in types.

describe('the two lists of synced tables', () => {
  it('name the same fields of the pull’s page', () => {
    expect([...PAGE_FIELDS].sort()).toEqual(Object.keys(MIRROR_PAGE_FIELDS).sort());
  });

  it('agree on types: what the server sends is what a device reads', () => {
    expectTypeOf<ServerPull>().toExtend<DevicePull>();
    expectTypeOf<keyof ServerPull>().toEqualTypeOf<keyof DevicePull>();
  });
});

describe('a device’s list', () => {
  it('reads each store’s primary key: a field, or the fields of a compound key in order', () => {
    expect(primaryKeyOf('id, groupId')).toBe('id');
    expect(primaryKeyOf('&betId')).toBe('betId');
    expect(primaryKeyOf('++id, name')).toBe('id');
    expect(primaryKeyOf('&[groupId+userId], groupId, userId')).toEqual(['groupId', 'userId']);
  });

  it('has a shape that names every table, so a table added changes it', () => {
    expect(MIRROR_SHAPE.split(',')).toEqual([...MIRROR_TABLES]);
  });
});
