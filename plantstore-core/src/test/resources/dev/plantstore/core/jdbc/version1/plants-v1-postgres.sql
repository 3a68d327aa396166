--
-- PostgreSQL database dump
--

\restrict MeQBXnqt0bMpYpUEa4htwcJpRTE3AuAcZgQmfCIifc9xMkgpdHJNYSaQg3By5yZ

-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: plantstore_v1_fixture; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA plantstore_v1_fixture;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: plants; Type: TABLE; Schema: plantstore_v1_fixture; Owner: -
--

CREATE TABLE plantstore_v1_fixture.plants (
    id bigint NOT NULL,
    name text NOT NULL,
    tag text
);


--
-- Name: plantstore_schema; Type: TABLE; Schema: plantstore_v1_fixture; Owner: -
--

CREATE TABLE plantstore_v1_fixture.plantstore_schema (
    version integer NOT NULL
);


--
-- Name: webhook_outbox; Type: TABLE; Schema: plantstore_v1_fixture; Owner: -
--

CREATE TABLE plantstore_v1_fixture.webhook_outbox (
    seq bigint NOT NULL,
    receiver text NOT NULL,
    plant_id bigint NOT NULL,
    type text NOT NULL,
    name text,
    tag text,
    recorded_at bigint NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    due_at bigint DEFAULT 0 NOT NULL,
    leased_until bigint DEFAULT 0 NOT NULL,
    state integer DEFAULT 0 NOT NULL,
    retry_from bigint DEFAULT 0 NOT NULL
);


--
-- Name: webhook_outbox_seq_seq; Type: SEQUENCE; Schema: plantstore_v1_fixture; Owner: -
--

CREATE SEQUENCE plantstore_v1_fixture.webhook_outbox_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: webhook_outbox_seq_seq; Type: SEQUENCE OWNED BY; Schema: plantstore_v1_fixture; Owner: -
--

ALTER SEQUENCE plantstore_v1_fixture.webhook_outbox_seq_seq OWNED BY plantstore_v1_fixture.webhook_outbox.seq;


--
-- Name: webhook_outbox seq; Type: DEFAULT; Schema: plantstore_v1_fixture; Owner: -
--

ALTER TABLE ONLY plantstore_v1_fixture.webhook_outbox ALTER COLUMN seq SET DEFAULT nextval('plantstore_v1_fixture.webhook_outbox_seq_seq'::regclass);


--
-- Data for Name: plants; Type: TABLE DATA; Schema: plantstore_v1_fixture; Owner: -
--

INSERT INTO plantstore_v1_fixture.plants VALUES (1, 'Monstera', 'aroid');
INSERT INTO plantstore_v1_fixture.plants VALUES (-1, 'Fern', NULL);
INSERT INTO plantstore_v1_fixture.plants VALUES (0, 'Moss', NULL);
INSERT INTO plantstore_v1_fixture.plants VALUES (9223372036854775807, 'Largest', 'max');
INSERT INTO plantstore_v1_fixture.plants VALUES (-9223372036854775807, 'Almost smallest', 'min+1');
INSERT INTO plantstore_v1_fixture.plants VALUES (9007199254740993, 'Past 2^53', 'js');
INSERT INTO plantstore_v1_fixture.plants VALUES (77, 'Zamioculcas été 🌿', NULL);
INSERT INTO plantstore_v1_fixture.plants VALUES (-4611686018427387904, 'Negative half', NULL);


--
-- Data for Name: plantstore_schema; Type: TABLE DATA; Schema: plantstore_v1_fixture; Owner: -
--

INSERT INTO plantstore_v1_fixture.plantstore_schema VALUES (1);


--
-- Data for Name: webhook_outbox; Type: TABLE DATA; Schema: plantstore_v1_fixture; Owner: -
--

INSERT INTO plantstore_v1_fixture.webhook_outbox VALUES (1, 'http://hook-user:hook-password@127.0.0.1:9/plant-events?token=query-secret', 1, 'plant.created', 'Monstera', 'aroid', 1795702530345, 1, 1795702531329, 0, 0, 0);
INSERT INTO plantstore_v1_fixture.webhook_outbox VALUES (2, 'http://hook-user:hook-password@127.0.0.1:9/plant-events?token=query-secret', -1, 'plant.created', 'Fern', NULL, 1795702530414, 0, 0, 0, 0, 0);
INSERT INTO plantstore_v1_fixture.webhook_outbox VALUES (3, 'http://hook-user:hook-password@127.0.0.1:9/plant-events?token=query-secret', 0, 'plant.created', 'Moss', NULL, 1795702530432, 0, 0, 0, 0, 0);
INSERT INTO plantstore_v1_fixture.webhook_outbox VALUES (4, 'http://hook-user:hook-password@127.0.0.1:9/plant-events?token=query-secret', 9223372036854775807, 'plant.created', 'Largest', 'max', 1795702530469, 0, 0, 0, 0, 0);
INSERT INTO plantstore_v1_fixture.webhook_outbox VALUES (5, 'http://hook-user:hook-password@127.0.0.1:9/plant-events?token=query-secret', -9223372036854775807, 'plant.created', 'Almost smallest', 'min+1', 1795702530484, 0, 0, 0, 0, 0);
INSERT INTO plantstore_v1_fixture.webhook_outbox VALUES (6, 'http://hook-user:hook-password@127.0.0.1:9/plant-events?token=query-secret', 9007199254740993, 'plant.created', 'Past 2^53', 'js', 1795702530498, 0, 0, 0, 0, 0);
INSERT INTO plantstore_v1_fixture.webhook_outbox VALUES (7, 'http://hook-user:hook-password@127.0.0.1:9/plant-events?token=query-secret', 77, 'plant.created', 'Zamioculcas été 🌿', NULL, 1795702530511, 0, 0, 0, 0, 0);
INSERT INTO plantstore_v1_fixture.webhook_outbox VALUES (8, 'http://hook-user:hook-password@127.0.0.1:9/plant-events?token=query-secret', 78, 'plant.created', 'Deleted later', 'gone', 1795702530525, 0, 0, 0, 0, 0);
INSERT INTO plantstore_v1_fixture.webhook_outbox VALUES (9, 'http://hook-user:hook-password@127.0.0.1:9/plant-events?token=query-secret', -4611686018427387904, 'plant.created', 'Negative half', NULL, 1795702530535, 0, 0, 0, 0, 0);
INSERT INTO plantstore_v1_fixture.webhook_outbox VALUES (10, 'http://hook-user:hook-password@127.0.0.1:9/plant-events?token=query-secret', 78, 'plant.deleted', NULL, NULL, 1795702530554, 0, 0, 0, 0, 0);


--
-- Name: webhook_outbox_seq_seq; Type: SEQUENCE SET; Schema: plantstore_v1_fixture; Owner: -
--

SELECT pg_catalog.setval('plantstore_v1_fixture.webhook_outbox_seq_seq', 10, true);


--
-- Name: plants plants_pkey; Type: CONSTRAINT; Schema: plantstore_v1_fixture; Owner: -
--

ALTER TABLE ONLY plantstore_v1_fixture.plants
    ADD CONSTRAINT plants_pkey PRIMARY KEY (id);


--
-- Name: webhook_outbox webhook_outbox_pkey; Type: CONSTRAINT; Schema: plantstore_v1_fixture; Owner: -
--

ALTER TABLE ONLY plantstore_v1_fixture.webhook_outbox
    ADD CONSTRAINT webhook_outbox_pkey PRIMARY KEY (seq);


--
-- Name: webhook_outbox_pending; Type: INDEX; Schema: plantstore_v1_fixture; Owner: -
--

CREATE INDEX webhook_outbox_pending ON plantstore_v1_fixture.webhook_outbox USING btree (receiver, seq) WHERE (state = 0);


--
-- Name: webhook_outbox_pending_by_plant; Type: INDEX; Schema: plantstore_v1_fixture; Owner: -
--

CREATE INDEX webhook_outbox_pending_by_plant ON plantstore_v1_fixture.webhook_outbox USING btree (receiver, plant_id, seq) WHERE (state = 0);


--
-- PostgreSQL database dump complete
--

\unrestrict MeQBXnqt0bMpYpUEa4htwcJpRTE3AuAcZgQmfCIifc9xMkgpdHJNYSaQg3By5yZ

