//! The error every config reader of the workspace gives for a value out of
//! its range: the key, the value and what was expected.

use std::fmt::Display;

/// A config key whose value is not accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("key `{key}` is {value}, expected {expected}")]
pub struct InvalidKey {
    /// The key, as written in a config file.
    pub key: String,
    /// The value given, as text.
    pub value: String,
    /// What is accepted.
    pub expected: String,
}

impl InvalidKey {
    /// `key` is `value`, where `expected` is accepted.
    pub fn new(key: impl Into<String>, value: impl Display, expected: impl Into<String>) -> Self {
        InvalidKey {
            key: key.into(),
            value: value.to_string(),
            expected: expected.into(),
        }
    }

    /// Checks that `value` of `key` lies in `min..=max` (a NaN never does).
    pub fn check_range<T: PartialOrd + Display>(
        key: &str,
        value: T,
        min: T,
        max: T,
    ) -> Result<(), InvalidKey> {
        if value >= min && value <= max {
            Ok(())
        } else {
            Err(InvalidKey::new(
                key,
                &value,
                format!("a number from {min} to {max}"),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_take_their_ends_and_refuse_nan() {
        assert!(InvalidKey::check_range("w", 0.0, 0.0, 4.0).is_ok());
        assert!(InvalidKey::check_range("w", 4.0, 0.0, 4.0).is_ok());
        let e = InvalidKey::check_range("w", f32::NAN, 0.0, 4.0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "key `w` is NaN, expected a number from 0 to 4"
        );
        assert!(InvalidKey::check_range("n", 9u32, 1, 8).is_err());
    }
}
