import { useRef, useState } from 'react';
import { portalCall } from '../api/call';
import type { Customer, InstrumentList, PaymentInstrument } from '../api/types';
import { useAction } from '../api/useAction';
import { useLoad } from '../api/useLoad';
import { AddCard } from '../components/AddCard';
import { ConfirmPanel } from '../components/ConfirmPanel';
import { ErrorMessage } from '../components/ErrorMessage';
import { instrumentName } from '../components/instrumentName';
import { useInteractiveWhen } from '../components/interactive';
import { Notice } from '../components/Notice';
import { PageHeading } from '../components/PageHeading';
import { useI18n } from '../i18n/I18n';
import { useSession } from '../session';

/** Saved cards: add one, make one the default, remove one no subscription still needs. */
export function PaymentMethodsPage() {
  const { t } = useI18n();
  const { customerChanged } = useSession();
  const [round, setRound] = useState(0);
  const list = useLoad(`instruments-${round}`, () => portalCall<InstrumentList>('payment-instruments/list'));
  const [notice, setNotice] = useState('');
  const [removing, setRemoving] = useState<PaymentInstrument | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  const removeButtons = useRef(new Map<string, HTMLButtonElement>());
  const makeDefault = useAction((id: string) => portalCall<Customer>('payment-instruments/set-default', { id }));
  const remove = useAction((id: string) => portalCall<PaymentInstrument>('payment-instruments/remove', { id }));
  useInteractiveWhen(list.data !== undefined || list.error !== undefined);

  const done = (words: string) => {
    setNotice(words);
    setRound((n) => n + 1);
    requestAnimationFrame(() => heading.current?.focus());
  };
  const setDefault = async (instrument: PaymentInstrument) => {
    setNotice('');
    const customer = await makeDefault.run(instrument.id);
    if (customer) {
      customerChanged(customer);
      done(t.instruments.defaultChanged);
    }
  };
  const dismissRemove = () => {
    const id = removing?.id;
    setRemoving(undefined);
    remove.reset();
    requestAnimationFrame(() => (id ? removeButtons.current.get(id) : undefined)?.focus());
  };
  const confirmRemove = async () => {
    if (!removing) return;
    setNotice('');
    if (await remove.run(removing.id)) {
      setRemoving(undefined);
      done(t.instruments.removed);
    }
  };

  const data = list.data;
  return (
    <>
      <PageHeading title={t.instruments.title}>{t.instruments.title}</PageHeading>
      <Notice>{notice}</Notice>
      <section aria-labelledby="saved-heading">
        <h2 id="saved-heading" ref={heading} tabIndex={-1}>
          {t.instruments.saved}
        </h2>
        {!data && list.pending && <p role="status">{t.common.loading}</p>}
        <ErrorMessage error={list.error} />
        <ErrorMessage error={makeDefault.error} />
        {data && data.data.length === 0 && <p>{t.instruments.none}</p>}
        {data && data.data.length > 0 && (
          <table>
            <caption className="visually-hidden">{t.instruments.saved}</caption>
            <thead>
              <tr>
                <th scope="col">{t.instruments.card}</th>
                <th scope="col">{t.instruments.expires}</th>
                <th scope="col">{t.common.status}</th>
                <th scope="col">{t.instruments.actions}</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((instrument) => {
                const name = instrumentName(t, instrument);
                const isDefault = instrument.id === data.default_payment_instrument_id;
                const usedBy = data.in_use[instrument.id]?.length ?? 0;
                return (
                  <tr key={instrument.id}>
                    <th scope="row">
                      {name}
                      {instrument.card.cardholder_name && <span className="hint"> · {instrument.card.cardholder_name}</span>}
                    </th>
                    <td>{t.instruments.expiry(instrument.card.exp_month, instrument.card.exp_year)}</td>
                    <td>
                      {isDefault && <span className="badge">{t.instruments.isDefault}</span>}
                      {usedBy > 0 && <span className="hint"> {t.instruments.inUse(usedBy)}</span>}
                    </td>
                    <td className="actions">
                      {!isDefault && (
                        <button type="button" className="secondary" onClick={() => void setDefault(instrument)} disabled={makeDefault.pending} aria-label={t.instruments.makeDefaultLabel(name)}>
                          {t.instruments.makeDefault}
                        </button>
                      )}
                      <button
                        type="button"
                        className="danger"
                        ref={(element) => {
                          if (element) removeButtons.current.set(instrument.id, element);
                          else removeButtons.current.delete(instrument.id);
                        }}
                        onClick={() => {
                          remove.reset();
                          setRemoving(instrument);
                        }}
                        aria-label={t.instruments.removeLabel(name)}
                      >
                        {t.instruments.remove}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {removing && (
          <ConfirmPanel key={removing.id} heading={t.instruments.removeHeading(instrumentName(t, removing))} onDismiss={dismissRemove}>
            <p>{t.instruments.removeText}</p>
            <ErrorMessage error={remove.error} />
            <div className="actions">
              <button type="button" className="danger" onClick={() => void confirmRemove()} disabled={remove.pending}>
                {t.instruments.removeConfirm}
              </button>
              <button type="button" className="secondary" onClick={dismissRemove}>
                {t.instruments.keep}
              </button>
            </div>
          </ConfirmPanel>
        )}
      </section>
      <section aria-labelledby="add-heading">
        <h2 id="add-heading">{t.instruments.add}</h2>
        <AddCard key={round} onAdded={() => done(t.instruments.added)} />
      </section>
    </>
  );
}
