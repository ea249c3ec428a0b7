/**
 * A manual pay holds the invoice's charge guard and is still within its lease: whoever wanted
 * to charge or move the invoice must try again once that pay has finished. Not a refusal: the
 * same request succeeds later.
 */
export class ChargeUnderWay extends Error {
  constructor(readonly invoiceId: string) {
    super(`Invoice ${invoiceId} has a charge under way.`);
    this.name = 'ChargeUnderWay';
  }
}
