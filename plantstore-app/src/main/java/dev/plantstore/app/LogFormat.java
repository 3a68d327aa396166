package dev.plantstore.app;

/** How log lines are written: for people, or one JSON object per line for a collector. */
enum LogFormat { TEXT, JSON }
