//! A fresh PostgreSQL database for each test that needs one.

#![allow(dead_code)]

pub fn postgres_admin_url() -> String {
    std::env::var("NUTSHELL_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string())
}

/// A fresh, empty PostgreSQL database for one test. A test that finds none
/// fails (`.ci/postgres`, run by the README's test command `.ci/test`,
/// starts one), unless `NUTSHELL_SKIP_POSTGRES=1` is set: then `None`,
/// said on stderr.
pub async fn fresh_postgres(test: &str) -> Option<String> {
    use sqlx::Connection;
    let admin = postgres_admin_url();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let name = format!(
        "nutshell_test_{now}_{}",
        nutshell_server::fair::random_token(4).unwrap()
    );
    let mut conn = match sqlx::PgConnection::connect(&admin).await {
        Ok(conn) => conn,
        Err(error) if std::env::var_os("NUTSHELL_SKIP_POSTGRES").is_some() => {
            eprintln!(
                "SKIPPED postgres::{test}: no PostgreSQL at {admin} ({error}) and NUTSHELL_SKIP_POSTGRES is set"
            );
            return None;
        }
        Err(error) => panic!(
            "postgres::{test} cannot run: no PostgreSQL at {admin} ({error}); .ci/postgres starts one (.ci/test runs it), NUTSHELL_TEST_POSTGRES names another, NUTSHELL_SKIP_POSTGRES=1 skips these tests"
        ),
    };
    // Databases of earlier runs, over an hour old, are dropped (the names are
    // ours: a fixed prefix, the creation time and hex digits).
    let old: Vec<(String,)> = sqlx::query_as(
        "SELECT datname::text FROM pg_database WHERE datname LIKE 'nutshell_test_%'",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    for (old,) in old {
        let created = old.split('_').nth(2).and_then(|t| t.parse::<u64>().ok());
        if created.is_some_and(|t| t + 3600 < now) {
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {old}"
            )))
            .execute(&mut conn)
            .await;
        }
    }
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut conn)
        .await
        .unwrap();
    let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap_or(&admin);
    Some(format!("{base}/{name}"))
}
