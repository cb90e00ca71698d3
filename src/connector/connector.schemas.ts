// Shared TypeBox pieces of the connector API: the {status, message, data, code} envelope.
import { Type, type TSchema } from '@sinclair/typebox';
import { CONNECTOR_ERROR_STATUS, type ConnectorErrorCode } from './connector.errors.js';

export const ConnectorErrorEnvelope = Type.Object(
  {
    status: Type.Literal('error'),
    message: Type.String(),
    code: Type.Unsafe<ConnectorErrorCode>({ type: 'string', enum: Object.keys(CONNECTOR_ERROR_STATUS) }),
  },
  { description: 'Error envelope of the connector API' },
);

/** `T | null`. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const connectorOk = <T extends TSchema>(data: T) =>
  Type.Object({ status: Type.Union([Type.Literal('success'), Type.Literal('partial')]), message: Type.String(), data });

/** Response schemas of an enveloped connector route: the success envelope plus the error envelope for 4xx/5xx. */
export const connectorResponses = <T extends TSchema>(data: T, code: 200 | 201 = 200) => ({
  [code]: connectorOk(data),
  '4xx': ConnectorErrorEnvelope,
  '5xx': ConnectorErrorEnvelope,
});

export const Timestamp = Type.String({ description: 'UTC, YYYY-MM-DD HH:MM:SS' });

export const bearer = [{ connectorToken: [] }];
