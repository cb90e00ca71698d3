import { Page } from '../components/page';

// Being built: replaced by the page itself.
export default function Placeholder() {
  return <Page title="categories">…</Page>;
}
