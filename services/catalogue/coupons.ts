import { ApiError } from '../../domain/errors';
import { newUuid } from '../../domain/ids';
import { Prisma } from '../../generated/prisma/client';

export const couponSelect = {
  id: true,
  code: true,
  calculationType: true,
  calculationValue: true,
  currency: true,
  createdAt: true,
  updatedAt: true,
} as const;

export type CouponRow = Prisma.CouponGetPayload<{ select: typeof couponSelect }>;

export interface NewCoupon {
  code: string;
  calculationType: string;
  calculationValue: number;
  currency?: string;
}

const codeTaken = (code: string, couponId?: string) =>
  new ApiError('COUPON_CODE_ALREADY_EXISTS', `A coupon with the code ${code} already exists.`, { code, ...(couponId ? { coupon_id: couponId } : {}) });

async function insertCoupon(tx: Prisma.TransactionClient, accountId: string, input: NewCoupon, now: Date): Promise<CouponRow> {
  try {
    return await tx.coupon.create({
      data: {
        id: newUuid(now.getTime()),
        accountId,
        code: input.code,
        calculationType: input.calculationType,
        calculationValue: String(input.calculationValue),
        currency: input.currency ?? null,
        createdAt: now,
        updatedAt: now,
      },
      select: couponSelect,
    });
  } catch (error) {
    // Two requests racing for one code: the unique index decides.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw codeTaken(input.code);
    throw error;
  }
}

/** coupons/create in the caller's transaction: codes are unique per account (422 COUPON_CODE_ALREADY_EXISTS). */
export async function createCoupon(deps: { now: () => Date }, tx: Prisma.TransactionClient, accountId: string, coupon: NewCoupon): Promise<CouponRow> {
  const existing = await tx.coupon.findUnique({ where: { accountId_code: { accountId, code: coupon.code } }, select: { id: true } });
  if (existing) throw codeTaken(coupon.code, existing.id);
  return insertCoupon(tx, accountId, coupon, deps.now());
}
