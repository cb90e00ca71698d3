// The reference lists, one route for all (/lists/:kind): brands, suppliers, VAT rates, channels, warehouses. Each is a
// table with an add-or-edit form beside it; what each list reads and sends is in list-configs.tsx.
import { Link, useParams } from 'react-router';
import { Page } from '../../components/page';
import { isListKind, LIST_CONFIGS } from './list-configs';
import { ListEditor } from './list-editor';
import './lists-page.css';

export default function ReferenceListsPage() {
  const { kind } = useParams();
  if (!isListKind(kind))
    return (
      <Page title="Unknown list">
        <p className="banner error" role="alert">
          There is no list called “{kind}”.
        </p>
        <p>
          The lists are <Link to="/lists/brands">brands</Link>, <Link to="/lists/suppliers">suppliers</Link>, <Link to="/lists/vat-rates">VAT rates</Link>,{' '}
          <Link to="/lists/channels">channels</Link> and <Link to="/lists/warehouses">warehouses</Link>.
        </p>
      </Page>
    );
  const config = LIST_CONFIGS[kind];
  return (
    <Page title={config.title}>
      {/* A list of its own for each kind: a form half-filled for brands does not carry over to suppliers. */}
      <ListEditor key={kind} config={config as never} />
    </Page>
  );
}
