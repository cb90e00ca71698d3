import { Link } from 'react-router';
import { Page } from './page';

export default function NotFound() {
  return (
    <Page title="Page not found">
      <p>
        There is no such page. <Link to="/products">Go to the products</Link>.
      </p>
    </Page>
  );
}
